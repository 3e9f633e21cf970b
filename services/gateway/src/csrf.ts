import type { FastifyRequest } from 'fastify';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

export const CROSS_SITE_MESSAGE = 'Cross-site requests are not allowed. Send the request from the Sendwell app itself.';
export const UNPROVEN_ORIGIN_MESSAGE =
  'A request authenticated by the session cookie must send Content-Type: application/json or an X-Requested-With header.';

export interface CsrfOptions {
  /** The public URL (APP_URL): its origin is allowed besides the one the request's own Host names. */
  publicUrl: string | undefined;
  /** Served over HTTPS behind a proxy that the gateway does not trust for X-Forwarded-Proto. */
  https: boolean;
}

/** `scheme://host[:port]` as browsers write Origin (lower case, default port left out), or null. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

export type CrossSiteCheck = (request: FastifyRequest) => string | null;

/**
 * A check saying why a state-changing call must be refused as cross-site (null: let it through). Only
 * calls a cookie alone authenticates are at risk: a browser attaches the cookie to a form or
 * fetch another site sends, but never an `Authorization` header. Browsers say where a request
 * comes from (`Sec-Fetch-Site`, `Origin`); a client sending neither is not a browser running
 * another site's page, yet a bare form post could still be one, so it must send what a form cannot:
 * a JSON content type or an `X-Requested-With` header.
 */
export function crossSiteCheck({ publicUrl, https }: CsrfOptions): CrossSiteCheck {
  const publicOrigin = publicUrl === undefined ? null : originOf(publicUrl);
  return (request) => refusal(request, publicOrigin, https);
}

function refusal(request: FastifyRequest, publicOrigin: string | null, https: boolean): string | null {
  const { headers } = request;
  if (!STATE_CHANGING.has(request.method)) return null;
  if (/^Bearer\s/i.test(headers.authorization ?? '')) return null;
  // Any cookie, not one name: the session cookie's name follows the auth settings (`token`,
  // `__Host-token`), and whatever cookie it is, a browser attaches it to another site's request.
  if (!headers.cookie) return null;

  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return CROSS_SITE_MESSAGE;

  const origin = headers.origin;
  if (origin !== undefined) {
    const own = originOf(`${https ? 'https' : request.protocol}://${request.host}`);
    const allowed = origin !== 'null' && (origin === own || origin === publicOrigin);
    return allowed ? null : CROSS_SITE_MESSAGE;
  }
  if (fetchSite !== undefined) return null;

  if (JSON_TYPE.test(headers['content-type'] ?? '') || headers['x-requested-with'] !== undefined) return null;
  return UNPROVEN_ORIGIN_MESSAGE;
}
