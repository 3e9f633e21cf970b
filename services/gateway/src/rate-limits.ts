import { createHash } from 'node:crypto';
import { parseCookie } from 'cookie';
import { rateLimited, type Logger } from '@sendwell/server-kit';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import ipaddr from 'ipaddr.js';

export interface RateLimit {
  max: number;
  windowMs: number;
}

/**
 * Whom a rule counts: `client`, the client address (IPv6 by /64); `credential`, the session the call
 * carries (its `Authorization: Bearer` token or session cookie, hashed), else the client address.
 * Calls only a signed-in user makes use `credential`, so the people behind one office NAT do not
 * share one counter; the calls a client makes before it has a session stay on the address.
 */
export type RateLimitKey = 'client' | 'credential';

/**
 * A rule applies to every method: Fastify answers HEAD with a GET handler, and a handler may take
 * more than one method, so limiting only the method a call is documented with leaves a way round.
 */
export interface RateLimitRule {
  /** Part of the Redis key and of the log line. */
  name: string;
  /** Given the normalised path (`normalizeRequestTarget`). */
  matches: (path: string) => boolean;
  limit: RateLimit;
  message: string;
  key: RateLimitKey;
}

export interface RateLimitSettings {
  login: RateLimit;
  register: RateLimit;
  forgotPassword: RateLimit;
  resetPassword: RateLimit;
  quickCheck: RateLimit;
  emailVerify: RateLimit;
  emailVerifyBatch: RateLimit;
  reportGenerate: RateLimit;
  integrationTest: RateLimit;
  serverStats: RateLimit;
  history: RateLimit;
  scanDetail: RateLimit;
}

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "10/60s" → { max: 10, windowMs: 60000 }; a bare number of seconds ("10/60") is accepted too. */
export function parseRateLimit(value: string): RateLimit | null {
  const match = /^(\d+)\s*\/\s*(\d+)\s*(ms|[smhd])?$/.exec(value.trim());
  if (!match) return null;
  const max = Number(match[1]);
  const windowMs = Number(match[2]) * UNIT_MS[(match[3] ?? 's') as keyof typeof UNIT_MS];
  if (max < 1 || windowMs < 1) return null;
  return { max, windowMs };
}

const exact = (target: string) => (path: string) => path === target;
const TOO_MANY = 'Too many attempts. Please try again later.';
/** `/api/integrations/:service/test` and `/api/integrations/webhooks/:id/test`: each sends a real message out. */
const INTEGRATION_TEST = /^\/api\/integrations\/(?:webhooks\/)?[^/]+\/test$/;
const HISTORY_PATH = '/api/domain-checks/history';
/** The history's timeline, one point per day (`/api/domains/:id/history/days`): counted with the history pages. */
const HISTORY_DAYS = /^\/api\/domains\/[^/]+\/history\/days$/;
/**
 * The reads of stored scans besides the history: one scan with its checks and DNS snapshot
 * (`/api/domain-checks/:scanId`, any single segment but `history`; the web app's scan-at-a-time
 * screen reads this one too) and a domain's score history (`/api/domains/:id/reputation/history`).
 * Not `/api/domains/:id/scans/:scanId`: the web app polls that one every second while a scan runs,
 * and it reads one scan's status row, nothing more.
 */
const SCAN_DETAIL = /^\/api\/domain-checks\/[^/]+$|^\/api\/domains\/[^/]+\/reputation\/history$/;

/**
 * The calls the architecture names (login, register, password reset, quick check, email
 * verification) and the expensive ones: a batch of verifications, report generation, the test
 * messages of integrations and webhooks, the administrator statistics (a fan-out to every service),
 * and the reads of stored scans: the history's pages and its timeline, and one scan's detail, counted per session.
 */
export function rateLimitRules(settings: RateLimitSettings): RateLimitRule[] {
  return [
    { name: 'login', matches: exact('/api/auth/login'), limit: settings.login, message: 'Too many login attempts. Please try again later.', key: 'client' },
    { name: 'register', matches: exact('/api/auth/register'), limit: settings.register, message: 'Too many registration attempts. Please try again later.', key: 'client' },
    { name: 'forgot-password', matches: exact('/api/auth/forgot-password'), limit: settings.forgotPassword, message: 'Too many password reset requests. Please try again later.', key: 'client' },
    { name: 'reset-password', matches: exact('/api/auth/reset-password-with-token'), limit: settings.resetPassword, message: TOO_MANY, key: 'client' },
    {
      name: 'quick-check',
      matches: (path) => path.startsWith('/api/sample-domains/') && path.length > '/api/sample-domains/'.length,
      limit: settings.quickCheck,
      message: 'Too many quick checks. Please wait a moment before checking another domain.',
      key: 'client',
    },
    { name: 'email-verify', matches: exact('/api/email-verify'), limit: settings.emailVerify, message: 'Too many email verifications. Please try again later.', key: 'client' },
    { name: 'email-verify-batch', matches: exact('/api/email-verify/batch'), limit: settings.emailVerifyBatch, message: 'Too many bulk email verifications. Please try again later.', key: 'client' },
    { name: 'report-generate', matches: exact('/api/reports/generate'), limit: settings.reportGenerate, message: 'Too many report requests. Please try again later.', key: 'client' },
    { name: 'integration-test', matches: (path) => INTEGRATION_TEST.test(path), limit: settings.integrationTest, message: 'Too many test messages. Please wait a moment before sending another.', key: 'client' },
    { name: 'server-stats', matches: exact('/api/admin/server-stats'), limit: settings.serverStats, message: 'Too many statistics requests. Please try again later.', key: 'client' },
    { name: 'history', matches: (path) => path === HISTORY_PATH || HISTORY_DAYS.test(path), limit: settings.history, message: 'Too many history requests. Please try again in a moment.', key: 'credential' },
    {
      name: 'scan-detail',
      matches: (path) => path !== HISTORY_PATH && SCAN_DETAIL.test(path),
      limit: settings.scanDetail,
      message: 'Too many scan detail requests. Please try again in a moment.',
      key: 'credential',
    },
  ];
}

/**
 * The counter a client address is kept under: an IPv4 address as it is (also when it arrives
 * IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its /64, the block one subscriber usually
 * gets whole, so rotating addresses inside it does not buy fresh counters.
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}

/**
 * The session token a request carries, read as every service's auth plugin reads it (server-kit's
 * `tokenExtractor`): `Authorization: Bearer <token>` first, and when that header is there the cookie
 * is not looked at; else the session cookie, parsed by the `cookie` package `@fastify/cookie` uses
 * (the first of that name, percent-decoded). Keying by exactly the string a service verifies means a client cannot
 * buy fresh counters with the same session by adding other cookies or spelling the token differently.
 * Not verified here: a made-up token gets a counter of its own, and the service answers it 401
 * without reading anything.
 */
export function sessionCredential(headers: FastifyRequest['headers'], cookieName: string): string | undefined {
  const authorization = headers.authorization;
  if (authorization && /^Bearer\s/i.test(authorization)) {
    const parts = authorization.split(' ');
    return parts.length === 2 && parts[1] ? parts[1] : undefined;
  }
  const cookie = headers.cookie;
  return cookie ? parseCookie(cookie)[cookieName] || undefined : undefined;
}

/**
 * The counter a session is kept under: a SHA-256 of the token (with a label of its own, so it matches
 * no other hash of it stored anywhere), never the token itself.
 */
export function credentialKey(credential: string): string {
  return `cred:${createHash('sha256').update('sendwell-gateway-rate-limit\0').update(credential).digest('base64url')}`;
}

/** Who a rule counts this request against (part of the Redis key): see `RateLimitKey`. */
export function rateLimitSubject(rule: RateLimitRule, request: FastifyRequest, sessionCookieName: string): string {
  if (rule.key === 'credential') {
    const credential = sessionCredential(request.headers, sessionCookieName);
    if (credential !== undefined) return credentialKey(credential);
  }
  return clientKey(request.ip);
}

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * INCR the window's counter and set its expiry on the first hit, in one round trip and atomically,
 * so a crash between the two can never leave a counter without an expiry.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }
`;

/**
 * Fixed-window counters in Redis, one key per rule and subject (`rateLimitSubject`: a client
 * address, or a hashed session). Redis trouble never blocks a request: the limiter fails open and
 * logs a warning (at most once per minute).
 */
export class RateLimiter {
  private lastWarning = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
    /** The session cookie the services read (server-kit's `sessionCookie`: `token` or `__Host-token`). */
    readonly sessionCookieName: string,
  ) {
    redis.defineCommand('gatewayRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  }

  /** Counts one call of `subject` (from `rateLimitSubject`) against `rule`. */
  async hit(rule: RateLimitRule, subject: string): Promise<RateLimitVerdict> {
    const key = `${this.prefix}:${rule.name}:${subject}`;
    try {
      const hit = (this.redis as unknown as Record<string, (key: string, windowMs: number) => Promise<[number, number]>>).gatewayRateLimitHit!;
      const [count, ttlMs] = await hit.call(this.redis, key, rule.limit.windowMs);
      if (count <= rule.limit.max) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
    } catch (err) {
      const now = Date.now();
      if (now - this.lastWarning > 60_000) {
        this.lastWarning = now;
        this.logger.warn({ err, rule: rule.name }, 'rate limit check failed; letting the request through');
      }
      return { allowed: true };
    }
  }
}

/**
 * Counts the call against the first rule matching `path` (normalised) and throws 429 past its
 * limit; does nothing when rate limiting is off or no rule applies.
 */
export async function enforceRateLimit(limiter: RateLimiter | null, rules: readonly RateLimitRule[], path: string, request: FastifyRequest): Promise<void> {
  if (!limiter) return;
  const rule = rules.find((r) => r.matches(path));
  if (!rule) return;
  const verdict = await limiter.hit(rule, rateLimitSubject(rule, request, limiter.sessionCookieName));
  if (verdict.allowed) return;
  // The address only: a credential (or its hash) is never logged.
  request.log.info({ rule: rule.name, ip: request.ip }, 'rate limited');
  throw rateLimited(rule.message, verdict.retryAfterSeconds);
}
