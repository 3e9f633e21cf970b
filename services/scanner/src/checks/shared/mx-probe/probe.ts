import { isIP } from 'node:net';
import tls from 'node:tls';
import type { OutboundPolicy } from '@sendwell/server-kit';
import { dialSmtp, printable, SmtpStepError, type SmtpReply, type SmtpSession } from '@sendwell/smtp-client';
import { eventLoopLag } from '../../../timing/loop-lag.js';
import { timingReliable } from '../../../timing/reliability.js';
import { convertLeafOnce, peerChain } from '../../tls-peer.js';
import type { SmtpCertificate, SmtpHostResult } from './host-result.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A greeting slower than this is reported (many senders give up long before RFC 5321's 5 minutes). */
export const SLOW_BANNER_MS = 10_000;

/** Chain errors that are really about the dates or the name, judged apart from trust. */
const DATE_OR_NAME_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID']);

export interface ProbeSettings {
  port: number;
  /** Per step: connect, each reply, the TLS handshake. */
  timeoutMs: number;
  /** The wait for the 220 greeting, longer than a step so a slow banner can be measured. */
  greetingTimeoutMs: number;
  /** SMTP_BANNER_SLOW's threshold (default SLOW_BANNER_MS): the scanner's own lag must not be able to push a greeting over it. */
  slowBannerMs?: number;
  heloName: string;
  context: tls.SecureContext;
  /** The outbound guard's policy, asked again as the vetted address is dialled. */
  outbound: OutboundPolicy;
  now: number;
  /** Read the chain the TLS session shows (DANE matches it); the SMTP check reads only the leaf. */
  chain?: boolean;
}

/**
 * One SMTP conversation with `result.ip`: greeting, EHLO, STARTTLS when offered, the TLS handshake,
 * EHLO again and QUIT (RFC 5321 §4.1, RFC 3207 §4). No mail is sent. Fills `result` in; the
 * sockets are always closed before this resolves. Resolves with the certificates the TLS session
 * showed (peerChain) when `settings.chain` asks for them, else (and without a session) [].
 */
export async function probeHost(result: SmtpHostResult, address: string, settings: ProbeSettings): Promise<Buffer[]> {
  result.ip = address;
  let session: SmtpSession;
  let connectedAt: number;
  // The loop-lag monitor samples from before the connection until the greeting is timed.
  const lag = new GreetingLag();
  try {
    ({ session, connectedAt } = await dialSmtp({ address, port: settings.port, outbound: settings.outbound, timeoutMs: settings.timeoutMs }));
  } catch (error) {
    lag.done();
    fail(result, 'connect', error);
    return [];
  }
  try {
    return await converse(result, session, connectedAt, settings, lag);
  } finally {
    lag.done();
    // A server that never greeted gets no QUIT: it would not answer it either.
    if (result.banner === null) session.close();
    else await session.quit(Math.min(settings.timeoutMs, 2_000));
  }
}

/** Greeting, EHLO and, when offered, STARTTLS; the peer's chain when a TLS session was made. */
async function converse(result: SmtpHostResult, session: SmtpSession, connectedAt: number, settings: ProbeSettings, lag: GreetingLag): Promise<Buffer[]> {
  const greeting = await step(result, 'greeting', () => session.read(settings.greetingTimeoutMs, 'greeting'));
  if (!greeting) return [];
  timeGreeting(result, connectedAt, session.lastReplyAt, settings.slowBannerMs ?? SLOW_BANNER_MS, lag);
  readGreeting(result, greeting);
  if (!result.greeted) return [];
  const ehlo = await step(result, 'ehlo', () => session.command(`EHLO ${settings.heloName}`, settings.timeoutMs));
  if (!ehlo) return [];
  if (ehlo.code !== 250) {
    refused(result, 'ehlo', `the server answered EHLO with ${describeReply(ehlo)}`);
    return [];
  }
  result.extensions = ehlo.lines.slice(1).map((line) => printable(line.trim())).filter((line) => line !== '');
  result.starttls = result.extensions.some((line) => line.split(' ')[0]?.toUpperCase() === 'STARTTLS');
  if (!result.starttls) return [];
  return upgrade(result, session, settings);
}

/** STARTTLS, the handshake with SNI of the MX host's name, then EHLO again over TLS. */
async function upgrade(result: SmtpHostResult, session: SmtpSession, settings: ProbeSettings): Promise<Buffer[]> {
  const reply = await step(result, 'starttls', () => session.command('STARTTLS', settings.timeoutMs));
  if (!reply) return [];
  if (reply.code !== 220) {
    refused(result, 'starttls', `the server answered STARTTLS with ${describeReply(reply)}`);
    return [];
  }
  const socket = await step(result, 'tls', () =>
    session.startTls(
      {
        secureContext: settings.context,
        servername: isIP(result.exchange) ? undefined : result.exchange,
        rejectUnauthorized: false,
      },
      settings.timeoutMs,
      // The probe reads the leaf (and DANE the chain, explicitly): Node's own chain conversion is skipped.
      convertLeafOnce,
    ),
  );
  if (!socket) return [];
  result.tlsVersion = socket.getProtocol();
  result.cipher = socket.getCipher()?.name ?? null;
  result.certificate = readCertificate(result.exchange, socket, settings.now);
  const chain = settings.chain === true ? peerChain(socket) : [];
  // The session starts over after STARTTLS (RFC 3207 §4.2): a second EHLO, whose answer is not judged.
  try {
    const ehlo = await session.command(`EHLO ${settings.heloName}`, settings.timeoutMs);
    if (ehlo.code === 250) result.extensions = ehlo.lines.slice(1).map((line) => printable(line.trim())).filter((line) => line !== '');
  } catch {
    // A server that drops the connection here has still shown its TLS; QUIT follows either way.
  }
  return chain;
}

/** Holds the process-wide loop-lag monitor (src/timing/loop-lag.ts) while the greeting is awaited. */
class GreetingLag {
  private held = true;
  constructor(readonly monitor = eventLoopLag()) {
    monitor.acquire();
  }

  done(): void {
    if (!this.held) return;
    this.held = false;
    this.monitor.release();
  }
}

/**
 * The greeting's time, from the connect event to the chunk completing the 220 reply (both taken in
 * the socket's callbacks), kept only when the scanner's own event-loop lag meanwhile could not have
 * pushed it over SMTP_BANNER_SLOW's threshold; otherwise it is shown as unreliable and not judged.
 */
function timeGreeting(result: SmtpHostResult, connectedAt: number, repliedAt: number, slowBannerMs: number, lag: GreetingLag): void {
  const measured = Math.max(0, repliedAt - connectedAt);
  const lagMs = lag.monitor.lagDuring(connectedAt, repliedAt);
  lag.done();
  if (timingReliable(measured, lagMs, { edgesMs: [slowBannerMs], noiseMs: 10, maxLagMs: 1_000 })) {
    result.bannerMs = Math.round(measured);
    return;
  }
  result.bannerMs = null;
  result.unreliableBannerTiming = { measuredMs: Math.round(measured), lagMs: Math.round(lagMs) };
}

/** Runs one step; on failure records where and why, and returns null. */
async function step<T>(result: SmtpHostResult, stage: SmtpHostResult['errorStage'] & string, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    fail(result, stage, error);
    return null;
  }
}

function fail(result: SmtpHostResult, stage: NonNullable<SmtpHostResult['errorStage']>, error: unknown): void {
  if (!(error instanceof SmtpStepError)) throw error;
  result.error = error.message;
  result.errorStage = stage;
}

function refused(result: SmtpHostResult, stage: NonNullable<SmtpHostResult['errorStage']>, message: string): void {
  result.error = message;
  result.errorStage = stage;
}

function readGreeting(result: SmtpHostResult, greeting: SmtpReply): void {
  const first = printable(greeting.lines[0] ?? '');
  result.banner = `${greeting.code}${first ? ` ${first}` : ''}`;
  if (greeting.code !== 220) {
    refused(result, 'greeting', `the server greeted with ${describeReply(greeting)} instead of 220`);
    return;
  }
  result.greeted = true;
  result.greetingName = first.split(' ')[0] || null;
}

/** "554 5.7.1 no service here", shortened. */
function describeReply(reply: SmtpReply): string {
  const text = printable(reply.lines.join(' ').trim());
  return text ? `${reply.code} ${text}` : String(reply.code);
}

function readCertificate(exchange: string, socket: tls.TLSSocket, now: number): SmtpCertificate | null {
  const cert = socket.getPeerCertificate(false);
  if (!cert || Object.keys(cert).length === 0) return null;
  const authError = normaliseAuthError(socket.authorizationError as unknown);
  const validTo = Date.parse(cert.valid_to);
  const validFrom = Date.parse(cert.valid_from);
  return {
    subject: nameOf(cert.subject),
    issuer: nameOf(cert.issuer),
    altNames: cert.subjectaltname ? cert.subjectaltname.split(', ').map((entry) => entry.replace(/^(DNS|IP Address):/, '')) : [],
    validFrom: Number.isNaN(validFrom) ? null : new Date(validFrom).toISOString(),
    validTo: Number.isNaN(validTo) ? null : new Date(validTo).toISOString(),
    // Whole days either way: 3 days and a minute after expiry is -3, not -4.
    daysRemaining: Number.isNaN(validTo) ? null : Math.trunc((validTo - now) / DAY_MS) || 0,
    nameMatches: tls.checkServerIdentity(exchange, cert) === undefined,
    trusted: socket.authorized || (authError !== null && DATE_OR_NAME_ERRORS.has(authError)),
    authorizationError: authError !== null && !DATE_OR_NAME_ERRORS.has(authError) ? authError : null,
  };
}

function normaliseAuthError(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  return (value as NodeJS.ErrnoException).code ?? (value as Error).message;
}

function nameOf(entity: tls.Certificate | undefined): string | null {
  if (!entity) return null;
  const pick = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
  const cn = pick(entity.CN);
  const org = pick(entity.O);
  if (cn && org && cn !== org) return `${cn} (${org})`;
  return cn ?? org ?? null;
}
