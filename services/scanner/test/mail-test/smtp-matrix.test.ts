import { randomBytes } from 'node:crypto';
import { JobName, mailTestAddressOf, mailTestAnalysisSchema, type MailTestAnalysis } from '@sendwell/contracts';
import { sendSmtp, testRedisUrl } from '@sendwell/testing';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useQueueTestScanner } from '../queue/harness.js';
import { waitUntil } from '../queue/wait.js';
import { arcSealed, dkimSigned, dkimTestKey, withFooter, type DkimTestKey } from './fixtures/signed-message.js';
import { buildMessage, type MessageSpec } from './messages/build-message.js';
import { startIntakeProcess, type IntakeProcess } from './smtp/intake-process.js';

/**
 * The stack-level matrix of Inbox Testing (issue 26): real SMTP sessions from loopback clients to the
 * intake service (its own process), messages signed with keys published in the fixture DNS, and the
 * scanner's worker reading what the intake stored and queued. One shared set-up sends every message;
 * each case then reads its stored analysis.
 *
 * sender.test publishes SPF (127.0.0.1 only), DMARC p=reject and the DKIM key s1; esp.test signs for
 * others; forwarder.test seals ARC; 127.0.0.1 is named mail.sender.test both ways.
 */

const ctx = useQueueTestScanner('smtp-matrix', { DNSBL_IP_ZONES: 'ips.test', DNSBL_DOMAIN_ZONES: 'dbl.test' });
const INTAKE_DOMAIN = 'intake.sendwell.test';
const SIGNED_HEADERS = ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type', 'list-unsubscribe', 'list-unsubscribe-post'];

type Case = 'passing' | 'failing' | 'unaligned' | 'forwarded' | 'missingOneClick' | 'plainText' | 'shortenedLinks';

interface Delivery {
  localAddress?: string;
  helo: string;
  mailFrom: string;
  message: Buffer;
}

interface Keys {
  sender: DkimTestKey;
  esp: DkimTestKey;
  forwarder: DkimTestKey;
}

function publishZones(keys: Keys): void {
  const spf = (ip: string) => ({ TXT: [`v=spf1 ip4:${ip} -all`] });
  ctx.dns.setName('sender.test', spf('127.0.0.1'));
  ctx.dns.setName('mail.sender.test', { A: ['127.0.0.1'] });
  ctx.dns.setName('1.0.0.127.in-addr.arpa', { PTR: ['mail.sender.test'] });
  ctx.dns.setName('_dmarc.sender.test', { TXT: ['v=DMARC1; p=reject'] });
  ctx.dns.setName('s1._domainkey.sender.test', { TXT: [keys.sender.dnsRecord] });
  ctx.dns.setName('esp.test', spf('127.0.0.1'));
  ctx.dns.setName('mail._domainkey.esp.test', { TXT: [keys.esp.dnsRecord] });
  ctx.dns.setName('forwarder.test', spf('127.0.0.1'));
  ctx.dns.setName('arc._domainkey.forwarder.test', { TXT: [keys.forwarder.dnsRecord] });
}

/** A message from news@sender.test dated now, with the unsubscribe headers unless `spec.headers` says otherwise. */
function message(id: string, spec: MessageSpec = {}): Buffer {
  return buildMessage({
    from: 'Sender News <news@sender.test>',
    date: new Date().toUTCString().replace('GMT', '+0000'),
    messageId: `<${id}@sender.test>`,
    headers: [
      ['List-Unsubscribe', '<https://sender.test/unsubscribe/t0k3n>, <mailto:unsubscribe@sender.test>'],
      ['List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'],
    ],
    text: 'Hello,\r\nhere is our news of the month, with what changed and what comes next.\r\n',
    html: `<p>${'Here is our news of the month, with what changed and what comes next. '.repeat(3)}</p><a href="https://sender.test/news">Read the news</a>`,
    ...spec,
  });
}

async function deliveries(keys: Keys): Promise<Record<Case, Delivery>> {
  const sign = (raw: Buffer) => dkimSigned(raw, { domain: 'sender.test', selector: 's1', key: keys.sender, headerList: SIGNED_HEADERS });
  const fromSender = { helo: 'mail.sender.test', mailFrom: 'bounces@sender.test' };
  return {
    passing: { ...fromSender, message: await sign(message('passing')) },
    // The body changed after signing, and the client is an address the SPF record does not list.
    failing: { ...fromSender, localAddress: '127.0.0.2', message: withFooter(await sign(message('failing', { html: null }))) },
    // Signed and sent by the provider under its own domain only.
    unaligned: {
      helo: 'mail.sender.test',
      mailFrom: 'bounces@esp.test',
      message: await dkimSigned(message('unaligned'), { domain: 'esp.test', selector: 'mail', key: keys.esp, headerList: SIGNED_HEADERS }),
    },
    // A list that added its footer (the author's signature breaks) and sealed what it received.
    forwarded: {
      helo: 'mx.forwarder.test',
      mailFrom: 'list-bounces@forwarder.test',
      message: await arcSealed(withFooter(await sign(message('forwarded', { html: null }))), {
        domain: 'forwarder.test',
        selector: 'arc',
        key: keys.forwarder,
        authResults: 'mx.forwarder.test; dkim=pass header.d=sender.test; spf=pass smtp.mailfrom=sender.test; dmarc=pass header.from=sender.test',
      }),
    },
    missingOneClick: {
      ...fromSender,
      message: await sign(message('missing-one-click', { headers: [['List-Unsubscribe', '<https://sender.test/unsubscribe/t0k3n>, <mailto:unsubscribe@sender.test>']] })),
    },
    plainText: { ...fromSender, message: await sign(message('plain-text', { html: null })) },
    shortenedLinks: {
      ...fromSender,
      message: await sign(message('shortened-links', { html: `<p>${'Our spring offer is here, with prices for every team size. '.repeat(3)}</p><a href="https://bit.ly/3xYz9Ab">See the offer</a>` })),
    },
  };
}

/** A test waiting for its message, as the intake's API creates one; answers its id and address. */
async function waitingTest(userId: number): Promise<{ id: number; address: string }> {
  const token = randomBytes(12).toString('hex');
  const row = await ctx.testDb.db
    .insertInto('inboxPlacementTests')
    .values({ userId, testId: token, status: 'waiting', expiresAt: new Date(Date.now() + 3600_000) })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  return { id: row.id, address: mailTestAddressOf(token, INTAKE_DOMAIN) };
}

const results = new Map<Case, { analysis: MailTestAnalysis; domainId: number | null; reply: string }>();
let intake: IntakeProcess | undefined;
let worker: Worker | undefined;
let senderDomainId: number;

beforeAll(async () => {
  // The intake boots in its own process while the keys are made and the messages signed here.
  const starting = startIntakeProcess({ databaseUrl: ctx.testDb.url, redisUrl: testRedisUrl(), prefix: ctx.prefix, dnsUrl: ctx.dns.url, intakeDomain: INTAKE_DOMAIN });
  let sends: Record<Case, Delivery>;
  let userId: number;
  try {
    const keys = { sender: dkimTestKey(2048), esp: dkimTestKey(1024), forwarder: dkimTestKey(1024) };
    publishZones(keys);
    userId = await ctx.f.user('advanced');
    senderDomainId = (await ctx.f.domain({ userId, name: 'sender.test' })).id;
    sends = await deliveries(keys);
  } finally {
    intake = await starting;
  }
  worker = ctx.deps.startWorker();

  const tests = new Map<Case, { id: number; reply: string }>();
  for (const [name, delivery] of Object.entries(sends) as Array<[Case, Delivery]>) {
    const test = await waitingTest(userId);
    tests.set(name, { id: test.id, reply: await sendSmtp({ port: intake.smtpPort, tlsCert: intake.tlsCert, rcptTo: test.address, ...delivery }) });
  }
  const ids = [...tests.values()].map((test) => test.id);
  const rows = await waitUntil(
    async () => {
      const found = await ctx.testDb.db.selectFrom('inboxPlacementTests').select(['id', 'status', 'results', 'domainId', 'error']).where('id', 'in', ids).execute();
      return found.every((row) => row.status === 'done' || row.status === 'failed') ? found : null;
    },
    { what: 'every test message analysed' },
  );
  for (const [name, test] of tests) {
    const row = rows.find((r) => r.id === test.id)!;
    if (row.status !== 'done') throw new Error(`${name}: the analysis failed: ${row.error}`);
    results.set(name, { analysis: mailTestAnalysisSchema.parse(row.results), domainId: row.domainId, reply: test.reply });
  }
}, 60_000);

afterAll(async () => {
  await worker?.close();
  await intake?.stop();
});

const result = (name: Case) => results.get(name)!;
const codes = (name: Case) => result(name).analysis.findings.map((finding) => finding.code);

describe('test messages delivered over SMTP to the intake and read by the scanner', () => {
  it('passing: SPF, an aligned DKIM signature and DMARC pass over TLS, and nothing is taken off the score', () => {
    const { analysis, reply } = result('passing');
    expect(reply).toMatch(/^250 2\.0\.0 Ok: queued as mail-test-\d+$/);
    expect(analysis.connection).toMatchObject({
      clientAddress: '127.0.0.1',
      helo: 'mail.sender.test',
      reverseDns: { forwardConfirmed: true, confirmedName: 'mail.sender.test' },
      tls: { used: true, protocol: 'TLSv1.3' },
    });
    expect(analysis.authentication.spf.mailFrom).toMatchObject({ domain: 'sender.test', result: 'pass' });
    expect(analysis.authentication.dkim).toEqual([expect.objectContaining({ domain: 'sender.test', selector: 's1', result: 'pass', aligned: true })]);
    expect(analysis.authentication.dmarc).toMatchObject({ domain: 'sender.test', result: 'pass', policy: 'reject', spfAligned: true, dkimAligned: true });
    expect(analysis.headers.listUnsubscribe.oneClick).toBe(true);
    expect(analysis.score).toEqual({ value: 10, deductions: [] });
  });

  it("files every test under the user's domain sender.test, and one refresh of its sender requirements waits for the intake", async () => {
    expect([...results.values()].map((r) => r.domainId)).toEqual(Array.from({ length: results.size }, () => senderDomainId));
    const jobs = await ctx.deps.queues.intake.getJobs(['waiting']);
    expect(jobs.filter((job) => job.name === JobName.RefreshSenderRequirements).map((job) => job.data)).toEqual([{ domainId: senderDomainId }]);
  });

  it('failing: a body changed after signing fails DKIM, and an unlisted client address fails SPF', () => {
    const { analysis } = result('failing');
    expect(analysis.connection.clientAddress).toBe('127.0.0.2');
    expect(analysis.authentication.spf.mailFrom).toMatchObject({ domain: 'sender.test', result: 'fail' });
    expect(analysis.authentication.dkim).toEqual([expect.objectContaining({ domain: 'sender.test', result: 'fail' })]);
    expect(analysis.authentication.dmarc).toMatchObject({ result: 'fail', spfAligned: false, dkimAligned: false });
    expect(analysis.score.value).toBeLessThan(result('passing').analysis.score.value);
  });

  it("unaligned: the provider's own signature passes, yet DMARC fails", () => {
    const { analysis } = result('unaligned');
    expect(analysis.authentication.spf.mailFrom).toMatchObject({ domain: 'esp.test', result: 'pass' });
    expect(analysis.authentication.dkim).toEqual([expect.objectContaining({ domain: 'esp.test', result: 'pass', aligned: false })]);
    expect(analysis.authentication.dmarc).toMatchObject({ domain: 'sender.test', result: 'fail', spfAligned: false, dkimAligned: false });
  });

  it("forwarded with ARC: the forwarder's seal validates while the author's signature broke", () => {
    const { analysis } = result('forwarded');
    expect(analysis.authentication.arc).toMatchObject({ result: 'pass', instances: 1 });
    expect(analysis.authentication.dkim).toEqual([expect.objectContaining({ domain: 'sender.test', result: 'fail' })]);
  });

  it('missing one-click: List-Unsubscribe without List-Unsubscribe-Post is found', () => {
    const { analysis } = result('missingOneClick');
    expect(analysis.headers.listUnsubscribe).toEqual({ mailto: 'mailto:unsubscribe@sender.test', https: 'https://sender.test/unsubscribe/t0k3n', oneClick: false });
    expect(codes('missingOneClick')).toContain('ONE_CLICK_MISSING');
    expect(codes('passing')).not.toContain('ONE_CLICK_MISSING');
  });

  it('plain-text only: a text part and no HTML part', () => {
    expect(result('plainText').analysis.content).toMatchObject({ textPart: true, htmlPart: false, links: [] });
  });

  it('HTML with shortened links: the bit.ly link is a shortener, and found', () => {
    const { analysis } = result('shortenedLinks');
    expect(analysis.content.links).toEqual([expect.objectContaining({ host: 'bit.ly', shortener: true })]);
    expect(codes('shortenedLinks')).toContain('URL_SHORTENER');
    expect(codes('passing')).not.toContain('URL_SHORTENER');
  });
});
