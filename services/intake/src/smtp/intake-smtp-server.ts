import type { AddressInfo } from 'node:net';
import { analyseMailTestJobId, features, MAIL_FLOW_PLAN_MESSAGE, MAIL_TEST_UNKNOWN_ADDRESS, REPORT_ADDRESS_UNKNOWN, type MailTestSession } from '@sendwell/contracts';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { parseMailTestRecipient } from '../addresses/mail-test-address.js';
import { parseReportRecipient } from '../addresses/report-address.js';
import type { ReportDomain } from '../addresses/report-domain.repository.js';
import type { Deps } from '../deps.js';
import { acceptMessage } from '../intake/accept-message.js';
import { receiveMailTest } from '../mail-tests/receive-mail-test.js';
import { clientKey, ConnectionCounter, MessageRateLimiter } from './client-limits.js';

export interface IntakeSmtpServer {
  /** Starts listening on INTAKE_SMTP_HOST:INTAKE_SMTP_PORT; resolves with the port (0 in the settings picks a free one). */
  listen(): Promise<number>;
  close(): Promise<void>;
}

/** A report goes to one or two of our addresses (rua and ruf of a domain, or a few domains): more is not a reporter. */
export const MAX_RECIPIENTS = 10;
/** Refused recipients per connection before it is closed: past this it is guessing addresses (each one costs a lookup). */
export const MAX_REFUSED_RECIPIENTS = 20;
/** Idle time allowed between commands or data chunks (RFC 5321 §4.5.3.2 asks for minutes; one is what large MTAs use). */
const SOCKET_TIMEOUT_MS = 60_000;
/** On close, how long sessions in flight may finish before they are cut. */
const CLOSE_TIMEOUT_MS = 10_000;

/** An error whose reply smtp-server sends as is. Enhanced codes are in the text (the library's own ones are off: it cannot pick 5.7.1 or 4.7.1). */
function smtpError(responseCode: number, text: string): Error & { responseCode: number } {
  return Object.assign(new Error(text), { responseCode });
}

const temporaryFailure = () => smtpError(451, '4.3.0 Temporary failure on our side; please try again later');

/** The session's accepted recipients, each with the domain it was issued for (smtp-server keeps the same session object per connection). */
const recipientDomains = new WeakMap<SMTPServerSession, Map<string, ReportDomain>>();
/** The transaction's accepted test addresses, each with its test's id (one message per test). */
const recipientTests = new WeakMap<SMTPServerSession, Map<string, number>>();
/** Recipients refused so far in the connection. */
const refusedRecipients = new WeakMap<SMTPServerSession, number>();

/** The TLS facts of a session: smtp-server keeps the socket's getCipher() in `tlsOptions` (typed as the server's options). */
function sessionTls(session: SMTPServerSession): MailTestSession['tls'] {
  if (!session.secure) return null;
  const cipher = session.tlsOptions as { name?: string; version?: string } | undefined;
  return { protocol: cipher?.version ?? null, cipher: cipher?.name ?? null };
}

/** The SMTP side of the intake: port-25 semantics (no AUTH), mail only for the addresses we issued (reports and inbox tests). */
export function createIntakeSmtpServer(deps: Deps): IntakeSmtpServer {
  const { env } = deps;
  const logger = deps.logger.child({ module: 'smtp' });
  const connections = new ConnectionCounter(env.INTAKE_MAX_CONNECTIONS_PER_CLIENT);
  const rate = new MessageRateLimiter(deps.redis, env.QUEUE_PREFIX, env.INTAKE_MESSAGES_PER_CLIENT_PER_MINUTE);
  const tls = env.INTAKE_TLS_CERT_FILE && env.INTAKE_TLS_KEY_FILE ? { cert: env.INTAKE_TLS_CERT_FILE, key: env.INTAKE_TLS_KEY_FILE } : undefined;

  const options: SMTPServerOptions = {
    name: env.INTAKE_DOMAIN,
    banner: 'Sendwell report intake',
    size: env.INTAKE_MAX_MESSAGE_BYTES,
    authOptional: true,
    // Without a certificate smtp-server would offer STARTTLS with its built-in one, whose key is public.
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...tls,
    hideENHANCEDSTATUSCODES: true,
    // PTR lookups are the sender's DNS, slow and of no use to us (sources are named later, by the worker).
    disableReverseLookup: true,
    maxClients: env.INTAKE_MAX_CONNECTIONS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    closeTimeout: CLOSE_TIMEOUT_MS,
    logger: false,

    onConnect(session, callback) {
      if (connections.enter(session.id, clientKey(session.remoteAddress))) return callback();
      logger.info({ client: session.remoteAddress }, 'connection refused: too many from this client');
      callback(smtpError(421, 'Too many connections from your address; please try again later'));
    },

    onClose(session) {
      connections.leave(session.id);
      forgetRecipients(session);
    },

    onMailFrom(_address, session, callback) {
      forgetRecipients(session);
      rate.take(clientKey(session.remoteAddress)).then(
        (allowed) => {
          if (allowed) return callback();
          logger.info({ client: session.remoteAddress }, 'message refused: per-minute limit of this client');
          callback(smtpError(451, '4.7.1 Too many messages from your address; please try again later'));
        },
        (err: unknown) => {
          // The count is a guard, not the message's safety: without Redis the message is still stored (and swept later).
          logger.warn({ err }, 'message rate not counted (redis unavailable)');
          callback();
        },
      );
    },

    onRcptTo(address, session, callback) {
      const refused = refusedRecipients.get(session) ?? 0;
      if (refused >= MAX_REFUSED_RECIPIENTS) {
        logger.info({ client: session.remoteAddress, refused }, 'connection closed: too many refused recipients');
        // smtp-server closes the connection after any 421.
        return callback(smtpError(421, '4.7.0 Too many unknown recipients; closing the connection'));
      }
      void checkRecipient(address, session).then(
        () => callback(),
        (err: Error & { responseCode?: number }) => {
          if (err.responseCode === 550) refusedRecipients.set(session, refused + 1);
          callback(err);
        },
      );
    },

    onData(stream, session, callback) {
      void receive(stream, session).then(
        (reply) => callback(null, reply),
        (err: Error) => callback(err),
      );
    },
  };

  function forgetRecipients(session: SMTPServerSession): void {
    recipientDomains.delete(session);
    recipientTests.delete(session);
  }

  async function checkRecipient(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
    const key = address.address.toLowerCase();
    const known = recipientDomains.get(session);
    const knownTests = recipientTests.get(session);
    if (!known?.has(key) && !knownTests?.has(key) && session.envelope.rcptTo.length >= MAX_RECIPIENTS) throw smtpError(452, '4.5.3 Too many recipients');
    const testToken = parseMailTestRecipient(address.address, env.INTAKE_DOMAIN);
    if (testToken) {
      const testId = await lookup(() => deps.mailTests.findOpenByToken(testToken));
      if (testId === undefined) throw smtpError(550, `5.1.1 ${MAIL_TEST_UNKNOWN_ADDRESS}`);
      recipientTests.set(session, (knownTests ?? new Map<string, number>()).set(key, testId));
      return;
    }
    const recipient = parseReportRecipient(address.address, env.INTAKE_DOMAIN);
    if (!recipient) throw smtpError(550, `5.1.1 This server accepts mail only for Sendwell report addresses at ${env.INTAKE_DOMAIN}`);
    const domain = await lookup(() => deps.reportDomains.findByToken(recipient.token));
    if (!domain) throw smtpError(550, `5.1.1 ${REPORT_ADDRESS_UNKNOWN}`);
    if (!features.mailFlow(domain.planType)) throw smtpError(550, `5.7.1 ${MAIL_FLOW_PLAN_MESSAGE}`);
    const map = known ?? new Map<string, ReportDomain>();
    map.set(key, domain);
    recipientDomains.set(session, map);
  }

  /** A recipient's lookup; 451 when the database cannot answer, so the sender tries again. */
  async function lookup<T>(find: () => Promise<T>): Promise<T> {
    try {
      return await find();
    } catch (err) {
      logger.error({ err }, 'recipient lookup failed');
      throw temporaryFailure();
    }
  }

  async function receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
    const raw = await readCapped(stream, env.INTAKE_MAX_MESSAGE_BYTES);
    if (!raw) {
      logger.info({ client: session.remoteAddress, bytes: stream.byteLength }, 'message refused: too large');
      throw smtpError(552, `5.3.4 Message exceeds the maximum size of ${env.INTAKE_MAX_MESSAGE_BYTES} bytes`);
    }
    // One stored message per domain, with only that domain's addresses (one owner never sees another's token).
    const byDomain = new Map<number, string[]>();
    for (const [address, domain] of recipientDomains.get(session) ?? []) {
      byDomain.set(domain.id, [...(byDomain.get(domain.id) ?? []), address]);
    }
    const tests = recipientTests.get(session) ?? new Map<string, number>();
    if (byDomain.size === 0 && tests.size === 0) throw smtpError(503, '5.5.1 No valid recipients');
    const mailFrom = session.envelope.mailFrom;
    const ids: number[] = [];
    const testIds: number[] = [];
    try {
      for (const [domainId, rcptTo] of byDomain) {
        const envelope = {
          clientAddress: session.remoteAddress,
          helo: session.hostNameAppearsAs,
          mailFrom: mailFrom ? mailFrom.address : '',
          rcptTo,
          tls: session.secure,
        };
        ids.push(
          await acceptMessage(deps.messages, deps.queues, { domainId, channel: 'smtp', envelope, contentType: null, raw }, (err) =>
            logger.warn({ err, domainId }, 'message stored but not queued; the sweep queues it'),
          ),
        );
      }
      // One stored message per test, with only that test's address.
      const receivedAt = new Date().toISOString();
      for (const [address, testId] of tests) {
        const facts: MailTestSession = {
          clientAddress: session.remoteAddress,
          helo: session.hostNameAppearsAs,
          mailFrom: mailFrom ? mailFrom.address : '',
          rcptTo: [address],
          tls: sessionTls(session),
          receivedAt,
          sizeBytes: raw.byteLength,
        };
        if (await receiveMailTest(deps, testId, raw, facts)) testIds.push(testId);
      }
    } catch (err) {
      // Anything stored so far is kept; the retry stores it again and the reader drops the duplicate report
      // (a test that took it already refuses the copy: its address is used).
      logger.error({ err, stored: ids, storedTests: testIds }, 'message not stored');
      throw temporaryFailure();
    } finally {
      forgetRecipients(session);
    }
    // Every test took another message meanwhile (two transactions at once): nothing of this one was kept.
    if (ids.length === 0 && testIds.length === 0) throw smtpError(550, `5.1.1 ${MAIL_TEST_UNKNOWN_ADDRESS}`);
    logger.info({ client: session.remoteAddress, tls: session.secure, bytes: raw.byteLength, messageIds: ids, mailTestIds: testIds }, 'message accepted');
    return `2.0.0 Ok: queued as ${[...ids.map(String), ...testIds.map(analyseMailTestJobId)].join(',')}`;
  }

  const server = new SMTPServer(options);
  // Socket errors of single sessions (resets, TLS failures) arrive here; without a listener they would crash the process.
  server.on('error', (err) => logger.warn({ err }, 'smtp session error'));

  return {
    listen() {
      return new Promise<number>((resolve, reject) => {
        const onError = (err: Error) => reject(err);
        server.server.once('error', onError);
        server.listen(env.INTAKE_SMTP_PORT, env.INTAKE_SMTP_HOST, () => {
          server.server.off('error', onError);
          resolve((server.server.address() as AddressInfo).port);
        });
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        if (!server.server.listening) return resolve();
        server.close(() => resolve());
      });
    },
  };
}

/** The message, or null once it went past `cap` bytes: the rest is read and dropped (the reply comes after the end of DATA). */
async function readCapped(stream: SMTPServerDataStream, cap: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  let over = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (over) continue;
    total += chunk.length;
    if (total > cap) {
      over = true;
      chunks.length = 0;
    } else {
      chunks.push(chunk);
    }
  }
  return over || stream.sizeExceeded ? null : Buffer.concat(chunks, total);
}
