import { createHmac } from 'node:crypto';
import { webhookPayloadSchema, type CreateWebhookAnswer } from '@sendwell/contracts';
import { createTestScanner, type TestScanner } from '@sendwell/scanner/testing';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestCa,
  issueCert,
  mailDomainZone,
  selfSignedCert,
  startDnsServer,
  startHttpsReceiver,
  startSmtpServer,
  startTlsServer,
  validity,
  type HttpsReceiver,
  type TestCa,
  type TestDnsServer,
  type TestSmtpServer,
  type TestTlsServer,
} from '@sendwell/testing';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';
import { waitUntil } from './wait.js';

/**
 * Alerts end to end: a REAL scanner scans a fixture zone, the zone changes, the next scan raises
 * alerts, and the notify worker delivers each to every channel the user enabled: a real SMTP server
 * for email, and one real HTTPS server (a test CA the service is told to trust) standing for Slack's
 * and Discord's APIs, a Teams and a Zapier webhook, PagerDuty's Events API and a custom webhook.
 */

const DOMAIN = 'notify.test';
const MAIL_IP = '192.0.2.25';
const LISTED_IP = '192.0.2.26';
let h: Harness;
let dns: TestDnsServer;
let scanner: TestScanner;
let receiver: HttpsReceiver;
let smtp: TestSmtpServer;
let ca: TestCa;
let tls: TestTlsServer;
const workers: Worker[] = [];
const hostnames = [DOMAIN, `www.${DOMAIN}`];

beforeAll(async () => {
  [receiver, smtp] = await Promise.all([startHttpsReceiver(), startSmtpServer()]);
  dns = await startDnsServer({ records: mailDomainZone(DOMAIN, { mailAddress: MAIL_IP }) });
  // The domain's web server (its A record is 127.0.0.1): a certificate from a test CA the scanner trusts.
  ca = await createTestCa();
  tls = await startTlsServer(await issueCert(ca, { hostnames }));
  const caFile = join(await mkdtemp(join(tmpdir(), 'notify-ca-')), 'ca.pem');
  await writeFile(caFile, ca.cert);
  h = await startHarness({
    SMTP_URL: smtp.url,
    APP_URL: 'https://app.sendwell.test',
    OUTBOUND_EXTRA_CA_FILE: receiver.caFile,
    SLACK_API_URL: `${receiver.url}/slack/api`,
    DISCORD_API_URL: `${receiver.url}/discord/api/v10`,
    PAGERDUTY_EVENTS_URL: `${receiver.url}/pagerduty`,
    NOTIFY_RETRY_BASE_MS: '200',
  });
  scanner = createTestScanner({ databaseUrl: h.testDb.url, redisUrl: h.deps.env.REDIS_URL, queuePrefix: h.prefix, dns, tls: { port: tls.port, caFile } });
  workers.push(scanner.startWorker());
  const notify = await h.deps.startNotify();
  if (notify) workers.push(notify);
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  await scanner.close();
  await h.close();
  await Promise.all([dns.close(), receiver.close(), smtp.close(), tls.close()]);
});

async function scanAndWait(domainId: number, headers: Record<string, string>): Promise<void> {
  // The manual-scan cooldown is a rule of the call, not of this pipeline: lift it between scans.
  await h.db.updateTable('domains').set({ lastManualScanAt: null }).where('id', '=', domainId).execute();
  const started = await h.app.inject({ method: 'POST', url: `/api/domains/${domainId}/scan`, headers });
  expect(started.statusCode).toBe(202);
  const { scanId } = started.json() as { scanId: string };
  await waitUntil(async () => (await h.db.selectFrom('scans').select('status').where('id', '=', scanId).executeTakeFirst())?.status === 'completed', 'the scan', 30_000);
}

const alertsOf = (domainId: number) =>
  h.db.selectFrom('domainAlerts').selectAll().where('domainId', '=', domainId).orderBy('id').execute();

const deliveriesOf = (alertIds: number[]) =>
  h.db.selectFrom('alertDeliveries').selectAll().where('alertId', 'in', alertIds).execute();

describe('alerts raised by DNS changes between two scans, delivered to every enabled channel', () => {
  let webhook: CreateWebhookAnswer;
  let domainId: number;
  let headers: Record<string, string>;
  let userEmail: string;

  it('configures every channel through the API', async () => {
    const user = await h.f.user('advanced');
    userEmail = (await h.db.selectFrom('users').select('email').where('id', '=', user.id).executeTakeFirstOrThrow()).email;
    headers = await h.auth(user);
    const configs = [
      { service: 'slack', config: { botToken: 'xoxb-test-token', channelId: 'C0ALERTS' } },
      { service: 'discord', config: { botToken: 'discord-bot-token', channelId: '123456789' } },
      { service: 'teams', config: { webhookUrl: `${receiver.url}/teams/hook` } },
      { service: 'zapier', config: { webhookUrl: `${receiver.url}/zapier/hooks/catch/1/abc` } },
      { service: 'pagerduty', config: { integrationKey: 'pd-routing-key-0123456789abcdef' } },
    ];
    receiver.respond((r) => (r.path.startsWith('/slack') ? { body: '{"ok":true}' } : r.path.startsWith('/pagerduty') ? { status: 202, body: '{"status":"success"}' } : undefined));
    for (const body of configs) {
      const res = await h.app.inject({ method: 'POST', url: '/api/integrations', headers, payload: body });
      expect(res.statusCode, JSON.stringify(res.json())).toBe(200);
    }
    const created = await h.app.inject({ method: 'POST', url: '/api/integrations/webhooks', headers, payload: { url: `${receiver.url}/customer/webhook`, description: 'ops' } });
    expect(created.statusCode).toBe(201);
    webhook = created.json() as CreateWebhookAnswer;
    expect(webhook.secret).toMatch(/^whsec_/);
    // The secret is shown once: listing never returns it.
    const listed = await h.app.inject({ method: 'GET', url: '/api/integrations/webhooks', headers });
    expect(JSON.stringify(listed.json())).not.toContain(webhook.secret);

    domainId = (await h.f.domain({ userId: user.id, name: DOMAIN })).id;
  });

  it('raises nothing on the first scan of a healthy domain', async () => {
    await scanAndWait(domainId, headers);
    expect(await alertsOf(domainId)).toEqual([]);
  });

  it('raises each alert once, and delivers each once to email, Slack, Discord, Teams, Zapier, PagerDuty and the webhook in their formats', async () => {
    // What an attacker or a careless edit might do: weaken DMARC, drop SPF and DKIM, and move mail to a listed
    // server. (A new address, because the scanner caches block-list answers across scans within their TTL.)
    dns.setRecords(`_dmarc.${DOMAIN}`, 'TXT', ['v=DMARC1; p=none']);
    dns.setRecords(DOMAIN, 'TXT', []);
    dns.setName(`google._domainkey.${DOMAIN}`, undefined);
    dns.setRecords(`mx.${DOMAIN}`, 'A', [LISTED_IP]);
    dns.setRecords(`${LISTED_IP.split('.').reverse().join('.')}.bl.fixture.test`, 'A', ['127.0.0.2']);
    await scanAndWait(domainId, headers);

    const alerts = await alertsOf(domainId);
    expect(alerts.map((a) => a.type).sort()).toEqual(['blacklist_listed', 'dkim_missing', 'dns_change', 'spf_broken', 'status_change']);
    const dnsChange = alerts.find((a) => a.type === 'dns_change')!;
    expect(dnsChange.message).toContain('DMARC policy downgraded from reject to none');
    expect(dnsChange.message).toContain('SPF record removed');
    expect(dnsChange.message).toContain('DKIM selector google removed');
    expect(alerts.find((a) => a.type === 'blacklist_listed')?.details).toMatchObject({ target: LISTED_IP, zone: 'bl.fixture.test' });

    const ids = alerts.map((a) => a.id);
    const channels = 7;
    await waitUntil(async () => (await deliveriesOf(ids)).filter((d) => d.status === 'sent').length === ids.length * channels, 'every delivery sent', 30_000);
    expect((await alertsOf(domainId)).every((a) => a.isSent)).toBe(true);

    const byPath = (prefix: string) => receiver.requests.filter((r) => r.path.startsWith(prefix) && r.status < 300);
    for (const prefix of ['/slack/api/chat.postMessage', '/discord/api/v10/channels/123456789/messages', '/teams/hook', '/zapier/', '/pagerduty/v2/enqueue', '/customer/webhook']) {
      expect(byPath(prefix), prefix).toHaveLength(ids.length);
    }

    const slack = byPath('/slack')[0]!;
    expect(slack.headers.authorization).toBe('Bearer xoxb-test-token');
    expect(slack.json).toMatchObject({ channel: 'C0ALERTS', blocks: expect.arrayContaining([expect.objectContaining({ type: 'header' })]) });
    const discord = byPath('/discord')[0]!;
    expect(discord.headers.authorization).toBe('Bot discord-bot-token');
    expect(discord.json).toMatchObject({ embeds: [expect.objectContaining({ title: expect.any(String), color: expect.any(Number) })] });
    expect(byPath('/teams')[0]!.json).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }] });
    const pd = byPath('/pagerduty').map((r) => r.json as { routing_key: string; event_action: string; dedup_key: string; payload: { severity: string; source: string } });
    expect(pd.every((e) => e.routing_key === 'pd-routing-key-0123456789abcdef' && e.event_action === 'trigger' && e.payload.source === DOMAIN)).toBe(true);
    expect(new Set(pd.map((e) => e.dedup_key)).size).toBe(ids.length);

    // The custom webhook: the documented body, signed with the secret shown at creation.
    for (const request of byPath('/customer/webhook')) {
      const header = String(request.headers['sendwell-signature']);
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
      expect(v1).toBe(createHmac('sha256', webhook.secret).update(`${t}.${request.body}`).digest('hex'));
      const payload = webhookPayloadSchema.parse(request.json);
      expect(payload.type).toBe('alert.raised');
      expect(request.headers['idempotency-key']).toBe(payload.id);
    }
    const zapier = webhookPayloadSchema.parse(byPath('/zapier/')[0]!.json);
    expect(zapier.data.domain.name).toBe(DOMAIN);

    // Email: one per alert, to the owner, with what changed, why it matters and the fixing guide.
    await waitUntil(async () => smtp.messages.filter((m) => m.to.includes(userEmail)).length >= ids.length, 'the alert mails');
    const mails = smtp.messages.filter((m) => m.to.includes(userEmail));
    expect(mails).toHaveLength(ids.length);
    const spfMail = mails.find((m) => m.subject.includes('SPF record missing'))!;
    expect(spfMail.text).toContain('Why it matters:');
    expect(spfMail.text).toContain(`https://app.sendwell.test/fixing-guide/${DOMAIN}/spf`);
    expect(spfMail.html).toContain('How to fix it');
  }, 60_000);

  it('resolves the conditions when the zone is repaired, and PagerDuty resolves the same incidents', async () => {
    const before = receiver.requests.length;
    dns.setRecords(`_dmarc.${DOMAIN}`, 'TXT', [`v=DMARC1; p=reject; rua=mailto:dmarc@${DOMAIN}`]);
    for (const [name, records] of Object.entries(mailDomainZone(DOMAIN, { mailAddress: MAIL_IP }))) dns.setName(name, records);
    await scanAndWait(domainId, headers);

    const alerts = await alertsOf(domainId);
    const resolved = alerts.filter((a) => a.resolvedAt !== null).map((a) => a.type).sort();
    expect(resolved).toEqual(['blacklist_listed', 'dkim_missing', 'spf_broken']);
    const resolvedIds = alerts.filter((a) => a.resolvedAt !== null).map((a) => a.id);
    await waitUntil(
      async () => (await h.db.selectFrom('alertDeliveries').select('status').where('event', '=', 'resolved').where('alertId', 'in', resolvedIds).execute()).filter((d) => d.status === 'sent').length === resolvedIds.length * 7,
      'the resolutions delivered',
      30_000,
    );
    const resolves = receiver.requests.slice(before).filter((r) => r.path.startsWith('/pagerduty')).map((r) => r.json as { event_action: string; dedup_key: string });
    expect(resolves.filter((e) => e.event_action === 'resolve').map((e) => e.dedup_key).sort()).toEqual(resolvedIds.map((id) => `sendwell-alert-${id}`).sort());
  }, 60_000);

  it('raises SSL expiry and a missing DMARC record, then an SSL security issue, resolving the expiry when the certificate changes', async () => {
    tls.setCertificate(await issueCert(ca, { hostnames, ...validity.expiringInDays(10) }));
    dns.setName(`_dmarc.${DOMAIN}`, undefined);
    const before = new Set((await alertsOf(domainId)).map((a) => a.id));
    await scanAndWait(domainId, headers);
    const raised = (await alertsOf(domainId)).filter((a) => !before.has(a.id));
    expect(raised.map((a) => a.type).sort()).toEqual(['dmarc_missing', 'dns_change', 'ssl_expiring', 'status_change']);
    const expiring = raised.find((a) => a.type === 'ssl_expiring')!;
    expect(expiring).toMatchObject({ severity: 'high', details: expect.objectContaining({ threshold: 14 }) });
    expect(raised.find((a) => a.type === 'dmarc_missing')?.title).toBe(`DMARC record missing for ${DOMAIN}`);

    // A self-signed certificate replaces it: a security issue, and the old expiry reminder is resolved.
    tls.setCertificate(await selfSignedCert({ hostnames }));
    await scanAndWait(domainId, headers);
    const after = await alertsOf(domainId);
    expect(after.find((a) => a.id === expiring.id)?.resolvedAt).not.toBeNull();
    expect(after.filter((a) => a.type === 'ssl_security_issue').map((a) => [a.severity, (a.details as { code: string }).code])).toEqual([['critical', 'SSL_SELF_SIGNED']]);
    expect(after.filter((a) => a.type === 'dmarc_missing')).toHaveLength(1);
    await waitUntil(
      async () => (await deliveriesOf(after.map((a) => a.id))).every((d) => d.status === 'sent'),
      'every delivery sent',
      30_000,
    );
  }, 60_000);
});
