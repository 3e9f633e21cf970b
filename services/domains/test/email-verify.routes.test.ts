import { BULK_VERIFY_PLAN_MESSAGE, EMAIL_VERIFY_BATCH_MAX, emailVerifyBatchAnswer, messages, NOT_AUTHENTICATED, type EmailVerificationResult } from '@sendwell/contracts';
import { startDnsServer, startSmtpServer, type TestDnsServer, type TestSmtpServer } from '@sendwell/testing';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startToolsHarness, type ToolsHarness } from './tools-harness.js';

/**
 * The verifier end to end: a real DNS server serving the fixture zones below, and real SMTP servers
 * for the probe: `startSmtpServer` accepts every recipient (a catch-all), and a strict one here
 * knows its mailboxes and refuses the rest the way Postfix does.
 */
const zones = {
  'valid.test': { MX: [{ priority: 10, exchange: 'mx.valid.test' }] },
  'mx.valid.test': { A: ['127.0.0.1'] },
  'implicit.test': { A: ['127.0.0.1'] },
  'implicit6.test': { AAAA: ['::1'] },
  'nullmx.test': { MX: [{ priority: 0, exchange: '.' }] },
  'nomail.test': { TXT: ['v=spf1 -all'] },
  'probe.test': { MX: [{ priority: 10, exchange: 'mx.probe.test' }] },
  'mx.probe.test': { A: ['127.0.0.1'] },
  'catchall.test': { MX: [{ priority: 10, exchange: 'mx.catchall.test' }] },
  'mx.catchall.test': { A: ['127.0.0.1'] },
  'xn--bcher-kva.test': { MX: [{ priority: 10, exchange: 'mx.valid.test' }] },
  // Mail hosts on private addresses: the probe never connects there.
  'private.test': { MX: [{ priority: 10, exchange: 'mx.private.test' }, { priority: 20, exchange: 'mx.internal' }] },
  'mx.private.test': { A: ['10.0.0.25'], AAAA: ['fd00::25'] },
  'mixed.test': { MX: [{ priority: 10, exchange: 'mx.private.test' }, { priority: 20, exchange: 'mx.probe.test' }] },
};

/** Postfix-like: known mailboxes pass, a full one is refused 552, everyone else 550 5.1.1. */
async function startStrictSmtp(mailboxes: string[], full: string[]): Promise<{ port: number; rcpts: string[]; close(): Promise<void> }> {
  const rcpts: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      rcpts.push(address.address);
      if (full.includes(address.address)) return callback(Object.assign(new Error('5.2.2 Mailbox full'), { responseCode: 552 }));
      if (!mailboxes.includes(address.address)) return callback(Object.assign(new Error('5.1.1 User unknown'), { responseCode: 550 }));
      callback();
    },
  });
  // A probe that drops its connection mid-transaction is reported on the server: not an uncaught exception.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return { port, rcpts, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let dns: TestDnsServer;
let h: ToolsHarness;
let headers: { authorization: string };

beforeAll(async () => {
  dns = await startDnsServer({ records: zones, behaviours: { 'slow.test': 'timeout' } });
  h = await startToolsHarness({ env: { DNS_SERVERS: dns.url, DNS_TIMEOUT_MS: '300' } });
  headers = await h.login(await h.factory.user('free'));
});
afterAll(async () => {
  await h?.close();
  await dns?.close();
});

async function verify(email: unknown, as = headers) {
  return h.app.inject({ method: 'POST', url: '/api/email-verify', headers: as, payload: { email } });
}
async function result(email: string, harness = h, as = headers): Promise<EmailVerificationResult> {
  const res = await harness.app.inject({ method: 'POST', url: '/api/email-verify', headers: as, payload: { email } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as EmailVerificationResult;
}

describe('POST /api/email-verify: the answer', () => {
  it('answers email, category, status, description and timestamp; valid with MX is send_to', async () => {
    const before = Date.now();
    const body = await result('  john@valid.test ');
    expect(body).toEqual({
      email: 'john@valid.test',
      category: 'send_to',
      status: 'valid',
      description: 'The address is well formed and valid.test accepts email (mail server mx.valid.test). The mailbox itself was not probed.',
      timestamp: expect.any(String),
    });
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('falls back to the A or AAAA record without MX (RFC 5321 §5.1)', async () => {
    for (const email of ['jane@implicit.test', 'jane@implicit6.test']) {
      const body = await result(email);
      expect(body).toMatchObject({ category: 'send_to', status: 'valid' });
      expect(body.description).toContain('no MX record, but the domain has an address');
    }
  });

  it('says do_not_send for a null MX (RFC 7505)', async () => {
    expect(await result('jane@nullmx.test')).toMatchObject({
      category: 'do_not_send',
      status: 'blocked',
      description: 'The domain nullmx.test does not accept email: it publishes a null MX record (RFC 7505).',
    });
  });

  it('says do_not_send for a domain with neither MX nor address, and for one that does not exist', async () => {
    expect(await result('jane@nomail.test')).toMatchObject({
      category: 'do_not_send',
      status: 'mailbox_not_found',
      description: 'The domain nomail.test has no mail server (no MX, A or AAAA record), so it cannot receive email.',
    });
    expect(await result('jane@missing.test')).toMatchObject({ category: 'do_not_send', status: 'mailbox_not_found', description: 'The domain missing.test does not exist.' });
  });

  it('says unknown (risky) when the DNS lookup times out', async () => {
    const body = await result('jane@slow.test');
    expect(body).toMatchObject({ category: 'risky', status: 'unknown' });
    expect(body.description).toContain('could not be looked up (ETIMEOUT)');
  });

  it.each([
    ['john.doe', 'The address is missing the @ sign.'],
    ['john..doe@valid.test', 'The part before the @ cannot contain two dots in a row.'],
    ['john@valid', 'The domain needs a dot and a top-level domain, like example.com.'],
    [`${'a'.repeat(65)}@valid.test`, 'The part before the @ is longer than 64 characters.'],
    ['john@-valid.test', 'The domain may contain only letters, digits and hyphens, and no part may start or end with a hyphen.'],
  ])('says syntax_error for %s', async (email, description) => {
    expect(await result(email)).toEqual({ email, category: 'do_not_send', status: 'syntax_error', description, timestamp: expect.any(String) });
  });

  it.each([
    ['jane@gmial.com', 'gmail.com'],
    ['jane@hotmial.com', 'hotmail.com'],
    ['jane@yahooo.com', 'yahoo.com'],
    ['jane@outlok.com', 'outlook.com'],
    ['jane@valid.con', 'valid.com'],
  ])('says typo for %s and suggests %s', async (email, suggestion) => {
    const body = await result(email);
    expect(body).toMatchObject({ category: 'do_not_send', status: 'typo' });
    expect(body.description).toContain(`Did you mean jane@${suggestion}?`);
  });

  it('says disposable for a listed throw-away provider', async () => {
    expect(await result('jane@mailinator.com')).toMatchObject({ category: 'do_not_send', status: 'disposable' });
  });

  it('says role_based (risky) for a role local part at a domain that takes mail', async () => {
    for (const local of ['admin', 'info', 'support', 'postmaster', 'noreply']) {
      expect(await result(`${local}@valid.test`)).toMatchObject({ category: 'risky', status: 'role_based' });
    }
  });

  it('accepts an internationalised domain and looks up its A-label', async () => {
    expect(await result('jürgen@bücher.test')).toMatchObject({ email: 'jürgen@bücher.test', category: 'send_to', status: 'valid' });
  });
});

describe('POST /api/email-verify: bad input and login', () => {
  it.each([[''], ['   '], [undefined]])('refuses %j with 400 "Please enter an email address to verify"', async (email) => {
    const res = await verify(email);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: messages.emailRequired });
  });

  it('refuses a body that is not JSON, and an address over 320 characters', async () => {
    const notJson = await h.app.inject({ method: 'POST', url: '/api/email-verify', headers: { ...headers, 'content-type': 'application/json' }, payload: '{' });
    expect(notJson.statusCode).toBe(400);
    const long = await verify(`${'a'.repeat(310)}@valid.test`);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ message: 'Email address is too long' });
  });

  it.each([['a NUL', 'jo\u0000hn@valid.test'], ['a lone surrogate', 'jo\ud800hn@valid.test'], ['an escape', 'jo\u001bhn@valid.test']])(
    'refuses an address with %s with 400, not a result',
    async (_label, email) => {
      const res = await verify(email);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Email address must not contain control characters' });
    },
  );

  it('answers 401 without a login', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/email-verify', payload: { email: 'john@valid.test' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
  });
});

describe('POST /api/email-verify: the per-user limit', () => {
  it('answers 429 with retryAfterSeconds past the limit, per user', async () => {
    const limited = await startToolsHarness({
      testDb: h.testDb,
      env: { DNS_SERVERS: dns.url, EMAIL_VERIFY_RATE_LIMIT: '3', EMAIL_VERIFY_RATE_WINDOW_SECONDS: '3600' },
    });
    try {
      const alice = await limited.login(await limited.factory.user('free'));
      const bob = await limited.login(await limited.factory.user('advanced'));
      for (let i = 0; i < 3; i++) expect((await limited.app.inject({ method: 'POST', url: '/api/email-verify', headers: alice, payload: { email: 'x@valid.test' } })).statusCode).toBe(200);
      const refused = await limited.app.inject({ method: 'POST', url: '/api/email-verify', headers: alice, payload: { email: 'x@valid.test' } });
      expect(refused.statusCode).toBe(429);
      const body = refused.json() as { code: string; message: string; retryAfterSeconds: number };
      expect(body).toMatchObject({ code: 'RATE_LIMITED', message: 'You have reached the limit of 3 email verifications per hour. Please try again in 60 minutes.' });
      expect(body.retryAfterSeconds).toBeGreaterThan(3500);
      expect(body.retryAfterSeconds).toBeLessThanOrEqual(3600);
      expect(refused.headers['retry-after']).toBe(String(body.retryAfterSeconds));
      // Another user has a window of their own.
      expect((await limited.app.inject({ method: 'POST', url: '/api/email-verify', headers: bob, payload: { email: 'x@valid.test' } })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('opens again when the window ends', async () => {
    const limited = await startToolsHarness({
      testDb: h.testDb,
      env: { DNS_SERVERS: dns.url, EMAIL_VERIFY_RATE_LIMIT: '1', EMAIL_VERIFY_RATE_WINDOW_SECONDS: '1' },
    });
    try {
      const alice = await limited.login(await limited.factory.user('free'));
      const call = () => limited.app.inject({ method: 'POST', url: '/api/email-verify', headers: alice, payload: { email: 'x@valid.test' } });
      expect((await call()).statusCode).toBe(200);
      const refused = await call();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ retryAfterSeconds: 1 });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await call()).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('the email verification allowances under twenty requests at once', () => {
  it('let exactly the allowance through, single and bulk, and refuse the rest with 429', async () => {
    const limited = await startToolsHarness({
      testDb: h.testDb,
      env: { DNS_SERVERS: dns.url, EMAIL_VERIFY_RATE_LIMIT: '5', EMAIL_VERIFY_BULK_LIMIT: '10' },
    });
    try {
      const as = await limited.login(await limited.factory.user('advanced'));
      const statuses = async (url: string, payload: (i: number) => object) =>
        (await Promise.all(Array.from({ length: 20 }, (_, i) => limited.app.inject({ method: 'POST', url, headers: as, payload: payload(i) })))).map((r) => r.statusCode);
      const single = await statuses('/api/email-verify', (i) => ({ email: `s${i}@valid.test` }));
      expect(single.filter((s) => s === 200)).toHaveLength(5);
      expect(single.filter((s) => s === 429)).toHaveLength(15);
      const bulk = await statuses('/api/email-verify/batch', (i) => ({ emails: [`b${i}@valid.test`] }));
      expect(bulk.filter((s) => s === 200)).toHaveLength(10);
      expect(bulk.filter((s) => s === 429)).toHaveLength(10);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/email-verify/batch: the bulk mode', () => {
  const batch = (emails: unknown, as: Record<string, string>, harness = h) => harness.app.inject({ method: 'POST', url: '/api/email-verify/batch', headers: as, payload: { emails } });

  it('answers each address in the order asked, a repeated one looked up once, with the allowance left', async () => {
    const as = await h.login(await h.factory.user('standard'));
    const res = await batch(['john@valid.test', 'john..doe@valid.test', 'jane@nullmx.test', 'john@valid.test', 'jane@mailinator.com'], as);
    expect(res.statusCode, res.body).toBe(200);
    const body = emailVerifyBatchAnswer.parse(res.json());
    expect(body.results.map((r) => [r.email, r.category, r.status])).toEqual([
      ['john@valid.test', 'send_to', 'valid'],
      ['john..doe@valid.test', 'do_not_send', 'syntax_error'],
      ['jane@nullmx.test', 'do_not_send', 'blocked'],
      ['john@valid.test', 'send_to', 'valid'],
      ['jane@mailinator.com', 'do_not_send', 'disposable'],
    ]);
    expect(body.remaining).toBe(5_000 - 5);
  });

  it.each(['free', 'basic'])('answers 403 on %s', async (plan) => {
    const res = await batch(['john@valid.test'], await h.login(await h.factory.user(plan)));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: BULK_VERIFY_PLAN_MESSAGE });
  });

  it.each([
    [[], 'Send at least one email address'],
    [Array.from({ length: EMAIL_VERIFY_BATCH_MAX + 1 }, (_, i) => `u${i}@valid.test`), `Send at most ${EMAIL_VERIFY_BATCH_MAX} email addresses per batch`],
    [['john@valid.test', '   '], messages.emailRequired],
    ['john@valid.test', 'Send a list of email addresses'],
  ])('answers 400 with a message for a bad list (%#)', async (emails, message) => {
    const res = await batch(emails, await h.login(await h.factory.user('advanced')));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('answers 401 without a session', async () => {
    expect((await batch(['john@valid.test'], {})).statusCode).toBe(401);
  });

  it('refuses a batch past the allowance whole and gives it back, so a smaller one still fits', async () => {
    const limited = await startToolsHarness({ testDb: h.testDb, env: { DNS_SERVERS: dns.url, EMAIL_VERIFY_BULK_LIMIT: '5', EMAIL_VERIFY_BULK_WINDOW_SECONDS: '3600' } });
    try {
      const as = await limited.login(await limited.factory.user('advanced'));
      expect((await batch(['a@valid.test', 'b@valid.test', 'c@valid.test'], as, limited)).json()).toMatchObject({ remaining: 2 });
      const refused = await batch(['d@valid.test', 'e@valid.test', 'f@valid.test'], as, limited);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: 'You have reached the limit of 5 bulk verifications per hour (2 left). Please try again in 60 minutes.' });
      expect((await batch(['d@valid.test', 'e@valid.test'], as, limited)).json()).toMatchObject({ remaining: 0 });
      // The single tool keeps its own allowance.
      expect((await limited.app.inject({ method: 'POST', url: '/api/email-verify', headers: as, payload: { email: 'g@valid.test' } })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/email-verify: SMTP probing (EMAIL_VERIFY_SMTP_PROBE on)', () => {
  let strict: Awaited<ReturnType<typeof startStrictSmtp>>;
  let acceptAll: TestSmtpServer;
  let probing: ToolsHarness;
  let catchAll: ToolsHarness;
  let as: { authorization: string };

  beforeAll(async () => {
    strict = await startStrictSmtp(['alice@probe.test', 'admin@probe.test'], ['full@probe.test']);
    acceptAll = await startSmtpServer();
    const probeEnv = { DNS_SERVERS: dns.url, EMAIL_VERIFY_SMTP_PROBE: 'true', EMAIL_VERIFY_HELO_DOMAIN: 'verify.sendwell.test', EMAIL_VERIFY_SMTP_TIMEOUT_MS: '2000' };
    probing = await startToolsHarness({ testDb: h.testDb, env: { ...probeEnv, EMAIL_VERIFY_SMTP_PORT: String(strict.port) } });
    catchAll = await startToolsHarness({ testDb: h.testDb, env: { ...probeEnv, EMAIL_VERIFY_SMTP_PORT: new URL(acceptAll.url).port } });
    as = await probing.login(await probing.factory.user('basic'));
  });
  afterAll(async () => {
    await probing?.close();
    await catchAll?.close();
    await strict?.close();
    await acceptAll?.close();
  });

  it('says valid when the server accepts the mailbox and refuses a random one', async () => {
    expect(await result('alice@probe.test', probing, as)).toEqual({
      email: 'alice@probe.test',
      category: 'send_to',
      status: 'valid',
      description: 'The mail server of probe.test confirmed the mailbox.',
      timestamp: expect.any(String),
    });
    // The real mailbox, then a random one at the same domain for the catch-all test.
    const asked = strict.rcpts.slice(-2);
    expect(asked[0]).toBe('alice@probe.test');
    expect(asked[1]).toMatch(/^sendwell-probe-[0-9a-f]{12}@probe\.test$/);
  });

  it('says mailbox_not_found when the server refuses the mailbox with 550', async () => {
    const body = await result('nobody@probe.test', probing, as);
    expect(body).toMatchObject({ category: 'do_not_send', status: 'mailbox_not_found' });
    expect(body.description).toBe('The mailbox does not exist: mx.probe.test answered 550.');
  });

  it('says mailbox_full on 552', async () => {
    expect(await result('full@probe.test', probing, as)).toMatchObject({ category: 'risky', status: 'mailbox_full' });
  });

  it('keeps role_based for a role mailbox the server accepts', async () => {
    expect(await result('admin@probe.test', probing, as)).toMatchObject({ category: 'risky', status: 'role_based' });
  });

  it('says catch_all when the server accepts any address', async () => {
    const body = await result('anyone@catchall.test', catchAll, as);
    expect(body).toMatchObject({ category: 'risky', status: 'catch_all' });
    expect(body.description).toBe('catchall.test accepts mail for any address (catch-all), so this mailbox cannot be confirmed.');
    // Probing never sends: no DATA, so no message arrived.
    expect(acceptAll.messages).toHaveLength(0);
  });

  it('never connects to a mail server on a private address, and says so', async () => {
    const before = strict.rcpts.length;
    const body = await result('alice@private.test', probing, as);
    expect(body).toMatchObject({ category: 'risky', status: 'unknown' });
    expect(body.description).toBe('The mail server of private.test (mx.private.test) points at a private address (private network), so the mailbox was not probed.');
    // A private first MX is skipped for a public one (loopback counts as public in the tests).
    expect(await result('alice@mixed.test', probing, as)).toMatchObject({ status: 'mailbox_not_found', description: 'The mailbox does not exist: mx.probe.test answered 550.' });
    expect(strict.rcpts.slice(before)).toEqual(['alice@mixed.test', expect.stringMatching(/^sendwell-probe-[0-9a-f]{12}@mixed\.test$/)]);
  });

  it('says unknown when the mail server cannot be reached', async () => {
    const down = await startToolsHarness({
      testDb: h.testDb,
      env: { DNS_SERVERS: dns.url, EMAIL_VERIFY_SMTP_PROBE: 'true', EMAIL_VERIFY_SMTP_PORT: '1', EMAIL_VERIFY_SMTP_TIMEOUT_MS: '500' },
    });
    try {
      const body = await result('alice@probe.test', down, as);
      expect(body).toMatchObject({ category: 'risky', status: 'unknown' });
      // In plain words: the socket error's text would name the address and port.
      expect(body.description).toBe('The mail server of probe.test could not confirm the mailbox (connection refused).');
    } finally {
      await down.close();
    }
  });

  it('is off by default: the same address is only checked as far as DNS', async () => {
    expect(await result('nobody@probe.test')).toMatchObject({ status: 'valid' });
  });
});
