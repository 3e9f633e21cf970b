import { apiRouteOptions, features, MAIL_FLOW_PLAN_MESSAGE, MAX_REPORT_UPLOAD_BYTES, REPORT_ADDRESS_UNKNOWN, reportTokenSchema, TLS_RPT_CONTENT_TYPES, UPLOAD_EMPTY_MESSAGE } from '@sendwell/contracts';
import { badRequest, notFound } from '@sendwell/server-kit';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ReportDomain } from '../addresses/report-domain.repository.js';
import type { Deps } from '../deps.js';
import { acceptMessage } from '../intake/accept-message.js';

type TlsRptContentType = (typeof TLS_RPT_CONTENT_TYPES)[number];

export const TLS_RPT_UNSUPPORTED_TYPE = `Send the report as ${TLS_RPT_CONTENT_TYPES.join(' or ')} (RFC 8460).`;
const NOT_GZIP = 'The body is not gzip data, as application/tlsrpt+gzip says.';
const NOT_JSON = 'The body is not a JSON object, as application/tlsrpt+json says.';

/** The media type without its parameters, lower-cased; undefined when it is not one of the two TLS-RPT types. */
function tlsRptType(header: string | undefined): TlsRptContentType | undefined {
  const type = header?.split(';', 1)[0]?.trim().toLowerCase();
  return TLS_RPT_CONTENT_TYPES.find((t) => t === type);
}

/** 415 in the ApiError shape: the kit's handler keeps a client error's status and message. */
function unsupportedType(): Error {
  return Object.assign(new Error(TLS_RPT_UNSUPPORTED_TYPE), { statusCode: 415 });
}

/** A JSON text starts (after whitespace) with `{`; the reader parses it with its own limits later. */
function looksLikeJsonObject(body: Buffer): boolean {
  for (const byte of body) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x7b;
  }
  return false;
}

/**
 * POST /api/intake/tls-rpt/{token} (RFC 8460 §5.3). Register with the `/api/intake/tls-rpt` prefix.
 * No session: external MTAs post here, and the token in the path is the address. The type and the
 * token are checked before the body is read, so a stranger's upload costs no more than its headers.
 */
export const tlsRptRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const domains = new WeakMap<FastifyRequest, ReportDomain>();

  // This scope reads the two TLS-RPT types as bytes and nothing else (JSON included: the body is stored as sent).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([...TLS_RPT_CONTENT_TYPES], { parseAs: 'buffer', bodyLimit: MAX_REPORT_UPLOAD_BYTES }, (_request, body, done) => done(null, body));

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/intake/tls-rpt/:token'),
    bodyLimit: MAX_REPORT_UPLOAD_BYTES,
    async onRequest(request) {
      if (!tlsRptType(request.headers['content-type'])) throw unsupportedType();
      // A malformed token is left to the params schema (400).
      const token = reportTokenSchema.safeParse((request.params as { token?: unknown }).token);
      if (!token.success) return;
      const domain = await deps.reportDomains.findByToken(token.data);
      if (!domain) throw notFound(REPORT_ADDRESS_UNKNOWN);
      if (!features.mailFlow(domain.planType)) throw notFound(MAIL_FLOW_PLAN_MESSAGE);
      domains.set(request, domain);
    },
    handler: async (request) => {
      const contentType = tlsRptType(request.headers['content-type']);
      const domain = domains.get(request);
      if (!contentType || !domain) throw unsupportedType();
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (body.byteLength === 0) throw badRequest(UPLOAD_EMPTY_MESSAGE);
      if (contentType === 'application/tlsrpt+gzip' ? body[0] !== 0x1f || body[1] !== 0x8b : !looksLikeJsonObject(body)) {
        throw badRequest(contentType === 'application/tlsrpt+gzip' ? NOT_GZIP : NOT_JSON);
      }
      const id = await acceptMessage(deps.messages, deps.queues, { domainId: domain.id, channel: 'https', envelope: { clientAddress: request.ip }, contentType, raw: body }, (err) =>
        request.log.warn({ err, domainId: domain.id }, 'report stored but not queued; the sweep queues it'),
      );
      request.log.info({ domainId: domain.id, messageId: id, bytes: body.byteLength, contentType }, 'TLS-RPT report received over HTTPS');
      return { accepted: true as const };
    },
  });
};
