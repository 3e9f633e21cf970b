import { MAIL_TEST_PLAN_MESSAGE, mailTestsPerDay } from '@sendwell/contracts';
import { sendSmtp, STACK_INTAKE_DOMAIN } from '@sendwell/testing';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { captureScreen } from './harness/browser';
import { dkimSignedMessage } from './harness/dkim-sign';
import { MAIL_TEST_SENDER_DOMAIN } from './harness/fixture-dns';
import { MAIL_TEST_DKIM_PRIVATE_KEY, MAIL_TEST_DKIM_SELECTOR } from './harness/mail-test-dkim-key';
import { apiCall, apiToken, login, registerPaidUser } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

const WAITING_TEXT = 'Waiting for your message…';
const RECEIVED_TEXT = 'Received, reading…';

/** A newsletter as a real sending system writes it: text and HTML, one-click unsubscribe, DKIM-signed for the fixture domain. */
function newsletter(to: string, subject: string): string {
  const domain = MAIL_TEST_SENDER_DOMAIN;
  const boundary = `b-${Date.now().toString(36)}`;
  const body = [
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Our spring sale starts today: 20% off everything.',
    `Shop now: https://${domain}/sale`,
    '',
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    '',
    `<html><body><h1>Spring sale</h1><p>Our spring sale starts today: 20% off everything in the shop, for one week only.</p><p><a href="https://${domain}/sale">Shop the sale</a></p></body></html>`,
    '',
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const headers = [
    ['From', `Newsletter Shop <news@${domain}>`],
    ['To', to],
    ['Subject', subject],
    ['Date', new Date().toUTCString().replace('GMT', '+0000')],
    ['Message-ID', `<${Date.now()}.${Math.random().toString(36).slice(2)}@${domain}>`],
    ['MIME-Version', '1.0'],
    ['Content-Type', `multipart/alternative; boundary="${boundary}"`],
    ['List-Unsubscribe', `<https://${domain}/unsubscribe?u=1>, <mailto:unsubscribe@${domain}>`],
    ['List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'],
  ] as const;
  return dkimSignedMessage(headers, body, { domain, selector: MAIL_TEST_DKIM_SELECTOR, privateKey: MAIL_TEST_DKIM_PRIVATE_KEY });
}

type StatusWatch = { statuses: string[]; reloaded: boolean };
interface WatchedGlobals {
  document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null; body: unknown };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void };
  __mailTestWatch?: StatusWatch;
}

/**
 * Records every status the current test shows, in this document: a reload would drop the record,
 * so its presence afterwards also proves the screen moved by itself.
 */
async function watchStatuses(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as unknown as WatchedGlobals;
    const watch: StatusWatch = { statuses: [], reloaded: false };
    g.__mailTestWatch = watch;
    const record = () => {
      const status = g.document.querySelector('[data-testid="mail-test"]')?.getAttribute('data-status');
      if (status && watch.statuses[watch.statuses.length - 1] !== status) watch.statuses.push(status);
    };
    record();
    new g.MutationObserver(record).observe(g.document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
}
const watchedStatuses = (page: Page) => page.evaluate(() => (globalThis as unknown as WatchedGlobals).__mailTestWatch?.statuses ?? null);

describe('inbox testing', () => {
  it('gives a standard user a test address, follows a real signed message to the score, and lists it', async () => {
    const user = await registerPaidUser('inboxtest', 'standard');
    const limit = mailTestsPerDay('standard');
    // The sending domain is the user's before the message arrives, so the analysis files the test under
    // it and the domain's sender requirements take it as evidence. Its first scan runs meanwhile.
    const added = await apiCall(await apiToken(user), 'POST', '/api/domains', { name: MAIL_TEST_SENDER_DOMAIN });
    expect(added.status).toBe(201);
    const { page, context } = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await login(page, user);

    await page.getByRole('link', { name: 'Inbox Testing' }).first().click();
    await page.waitForURL('**/inbox-placement');
    await page.getByRole('heading', { level: 2, name: 'Inbox Testing' }).waitFor();
    await page.getByTestId('mail-test-intro').waitFor();
    await page.getByTestId('mail-test-quota').getByText(`0 of ${limit} tests used today`).waitFor();

    // A new test: its address with a copy button, until when it is open, and the waiting state.
    await page.getByRole('button', { name: 'New test' }).click();
    const panel = page.locator('[data-testid="mail-test"][data-status="waiting"]');
    await panel.getByTestId('mail-test-waiting').filter({ hasText: WAITING_TEXT }).waitFor();
    const address = (await panel.getByTestId('value-address').textContent())?.trim() ?? '';
    expect(address).toMatch(new RegExp(`^test-[a-z0-9]{24}@${STACK_INTAKE_DOMAIN.replace(/\./g, '\\.')}$`));
    await panel.getByTestId('mail-test-open-until').getByText(/^Open until \d\d:\d\d \((60|59) min left\)$/).waitFor();
    await panel.getByRole('button', { name: 'Copy address' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
    await page.getByTestId('mail-test-quota').getByText(`1 of ${limit} tests used today`).waitFor();
    await captureScreen(page, 'inbox-testing-waiting');

    // A real message over SMTP from this process (127.0.0.1, which the sender's SPF allows).
    await watchStatuses(page);
    const subject = `Spring sale ${Date.now()}`;
    await sendSmtp({
      port: inject('intakeSmtpPort'),
      helo: `mail.${MAIL_TEST_SENDER_DOMAIN}`,
      mailFrom: `bounces@${MAIL_TEST_SENDER_DOMAIN}`,
      rcptTo: address,
      message: newsletter(address, subject),
    });

    // The screen moves by itself: received, then the results, in the same document.
    const done = page.locator('[data-testid="mail-test"][data-status="done"]');
    await done.waitFor({ timeout: 60_000 });
    expect(await watchedStatuses(page)).toEqual(['waiting', 'received', 'done']);
    // Followed through the events stream, not the polling fallback.
    expect(await done.getAttribute('data-following')).toBe('events');

    const score = (await done.getByTestId('mail-test-score-value').textContent()) ?? '';
    expect(score).toMatch(/^\d+(\.\d)?\/10$/);
    expect(await done.getByTestId('mail-test-score-arithmetic').textContent()).toMatch(new RegExp(`^10 .*= ${score.replace('/10', '').replace('.', '\\.')}`));
    for (const group of ['connection', 'authentication', 'headers', 'content']) await done.getByTestId(`mail-test-group-${group}`).waitFor();
    const auth = done.getByTestId('details-authentication');
    const dkim = auth.getByTestId('dkim-signature').filter({ hasText: `d=${MAIL_TEST_SENDER_DOMAIN} s=${MAIL_TEST_DKIM_SELECTOR}` });
    expect(await dkim.getByTestId('verdict').textContent()).toBe('pass');
    await dkim.getByText(/rsa-sha256, 2048-bit key/).waitFor();
    await done.getByTestId('details-headers').getByText(subject).waitFor();
    await done.getByTestId('details-connection').getByText('127.0.0.1', { exact: false }).first().waitFor();
    await captureScreen(page, 'inbox-testing');

    // The past tests list it with its score; opening the screen afresh and choosing it shows its results.
    const row = page.getByTestId('past-mail-test').filter({ hasText: subject });
    await row.getByTestId('past-mail-test-score').getByText(score, { exact: true }).waitFor();
    await row.getByText('Done', { exact: true }).waitFor();
    await page.goto('/inbox-placement');
    await page.getByTestId('mail-test-intro').waitFor();
    await page.getByTestId('past-mail-test').filter({ hasText: subject }).getByRole('button', { name: subject }).click();
    await page.locator('[data-testid="mail-test"][data-status="done"]').getByTestId('mail-test-score-value').getByText(score, { exact: true }).waitFor();
    expect(await page.getByText(RECEIVED_TEXT).count()).toBe(0);

    // The domain's sender requirements take the test message as evidence (issue 26). It was sent
    // without STARTTLS, so TLS is unmet; its one-click unsubscribe headers meet that requirement.
    await page.goto(`/domains/${MAIL_TEST_SENDER_DOMAIN}`);
    const card = page.getByTestId('sender-requirements-card');
    await card.getByRole('heading', { level: 2, name: 'Sender requirements' }).waitFor();
    await card.getByTestId('sender-requirements-met').getByText(/^\d of 9 met$/).waitFor();
    await card.locator('[data-testid="evidence-source"][data-source="mail_test"][data-state="used"]').waitFor();
    const requirement = (id: string) => card.locator(`[data-testid="requirement"][data-id="${id}"]`);
    const tls = requirement('tls');
    expect(await tls.getAttribute('data-status')).toBe('unmet');
    expect(await tls.getByTestId('requirement-status').textContent()).toBe('Status: Unmet');
    await tls.getByTestId('requirement-fix').waitFor();
    await tls.getByRole('button', { name: 'Show evidence (1) for TLS' }).click();
    const tlsEvidence = tls.locator('[data-testid="evidence"][data-source="mail_test"][data-status="unmet"]');
    await tlsEvidence.getByText('Test message', { exact: true }).waitFor();
    const unsubscribe = requirement('one_click_unsubscribe');
    expect(await unsubscribe.getAttribute('data-status')).toBe('met');
    expect(await unsubscribe.getByTestId('requirement-status').textContent()).toBe('Status: Met');
    await unsubscribe.getByRole('button', { name: /^Show evidence \(1\)/ }).click();
    const unsubscribeEvidence = unsubscribe.locator('[data-testid="evidence"][data-source="mail_test"][data-status="met"]');
    await unsubscribeEvidence.getByText(`https://${MAIL_TEST_SENDER_DOMAIN}/unsubscribe?u=1`, { exact: false }).waitFor();
    await captureScreen(page, 'sender-requirements');
  }, 150_000);

  it('shows a basic user the plan message with an upgrade link, and the intake refuses them', async () => {
    const user = await registerPaidUser('inboxbasic', 'basic');
    const refused = await apiCall<{ message: string }>(await apiToken(user), 'POST', '/api/mail-tests');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MAIL_TEST_PLAN_MESSAGE);

    const { page } = await newPage();
    await login(page, user);
    await page.goto('/inbox-placement');
    await page.getByRole('heading', { level: 2, name: 'Inbox Testing' }).waitFor();
    await page.getByText(MAIL_TEST_PLAN_MESSAGE).waitFor();
    expect(await page.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe('/subscription');
    expect(await page.getByRole('button', { name: 'New test' }).count()).toBe(0);
    await captureScreen(page, 'inbox-testing-basic');
  }, 120_000);
});
