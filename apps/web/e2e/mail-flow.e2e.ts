import { MAIL_FLOW_PLAN_MESSAGE } from '@sendwell/contracts';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { captureScreen, DESKTOP, MOBILE, SCREENSHOT_DIR, SCREENSHOTS, uniqueUser } from './harness/browser';
import { sampleAggregateReport } from './harness/dmarc-report';
import { HEALTHY_DOMAIN } from './harness/fixture-dns';
import { addDomainAndWaitForScan, apiCall, apiToken, login, markPreferencesSet, registerPaidUser, registerViaApi } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

/** The section alone, at full size: the page's full captures shrink it too far to judge its layout. */
async function sectionShot(section: Locator, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  // The shell's sticky header would be drawn over the section where Playwright scrolled it.
  const unstick = await section.page().addStyleTag({ content: 'header { position: static !important; }' });
  await section.screenshot({ path: join(SCREENSHOT_DIR, `${name}-section.png`), animations: 'disabled' });
  await unstick.evaluate((element) => element.remove());
}

interface Addresses {
  dmarcAddress: string;
  records: { host: string; value: string }[];
  firstReportAt: string | null;
}

describe('mail flow on the domain page', () => {
  it('shows a paid user the records to publish, takes an uploaded aggregate report, then shows volume, senders and readiness', async () => {
    const user = await registerPaidUser('mailflow', 'basic');
    const token = await apiToken(user);
    const domainId = await addDomainAndWaitForScan(token, HEALTHY_DOMAIN);
    const addresses = await apiCall<Addresses>(token, 'GET', `/api/domains/${domainId}/report-addresses`);
    expect(addresses.status).toBe(200);
    expect(addresses.body.firstReportAt).toBeNull();

    const { page, context } = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await login(page, user);
    await page.goto(`/domains/${HEALTHY_DOMAIN}`);
    const section = page.getByTestId('mail-flow-section');
    // The section waits below the fold: with the checks drawn above it, nothing of it has loaded yet.
    await page.getByTestId('check-spf').waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByTestId('mail-flow-loading').count()).toBe(1);
    expect(await section.count()).toBe(0);
    // Scrolled towards, it loads.
    await page.locator('#mail-flow').scrollIntoViewIfNeeded();
    await section.getByRole('heading', { level: 2, name: 'Mail flow' }).waitFor();

    // Before any report: each record to publish, exactly as the intake gives it, with its copy button.
    const setup = section.getByTestId('mail-flow-setup');
    await setup.waitFor();
    expect(await setup.getByTestId('record-to-publish').count()).toBe(addresses.body.records.length);
    for (const r of addresses.body.records) {
      await setup.getByText(r.value, { exact: true }).waitFor();
      await setup.getByRole('button', { name: `Copy ${r.host.toLowerCase()} value` }).waitFor();
    }
    await setup.getByText(addresses.body.dmarcAddress, { exact: true }).waitFor();
    const dmarc = addresses.body.records.find((r) => r.host === `_dmarc.${HEALTHY_DOMAIN}`);
    expect(dmarc?.value).toContain(`mailto:${addresses.body.dmarcAddress}`);
    await setup.getByRole('button', { name: `Copy _dmarc.${HEALTHY_DOMAIN} value` }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(dmarc?.value);
    await captureScreen(page, 'mail-flow-setup');
    await sectionShot(section, 'mail-flow-setup');

    // A report already in a mailbox, uploaded through the file input.
    const report = sampleAggregateReport(HEALTHY_DOMAIN, `e2e-${Date.now()}`);
    const file = { name: report.fileName, mimeType: 'text/xml', buffer: Buffer.from(report.xml) };
    await section.getByLabel('Upload a report').setInputFiles(file);
    const outcome = section.getByTestId('upload-outcome');
    await outcome.getByText(`${report.records} records stored`, { exact: false }).waitFor();

    // The first report switches the section to what the reports say.
    const volume = section.getByTestId('mail-flow-volume');
    await volume.getByTestId('total-messages').getByText(String(report.messages), { exact: true }).waitFor({ timeout: 15_000 });
    await volume.getByRole('img', { name: /Messages per day/ }).waitFor();

    const own = section.getByTestId('senders-own');
    await own.locator('[data-testid="sender-row"][data-category="authorised"]').first().waitFor();
    await own.locator('[data-testid="sender-row"][data-category="unknown"]').first().waitFor();
    // Forwarded mail is listed apart, never among the unknown sources.
    await section.getByTestId('senders-forwarded').locator('[data-testid="sender-row"][data-category="forwarded"]').first().waitFor();
    expect(await own.locator('[data-category="forwarded"]').count()).toBe(0);

    const readiness = section.getByTestId('policy-readiness');
    await readiness.getByTestId('readiness-current').getByText(/p=none/).waitFor();
    await readiness.getByTestId('readiness-status').waitFor();
    await section.getByTestId('received-report').getByText('google.com', { exact: true }).waitFor();
    await section.getByTestId('received-report').getByRole('link', { name: /View source/ }).waitFor();
    await section.getByRole('button', { name: /^\d+ address(es)? of / }).first().click();
    await captureScreen(page, 'mail-flow');
    await sectionShot(section, 'mail-flow');
    await page.setViewportSize(MOBILE);
    await sectionShot(section, 'mail-flow-390');
    await page.setViewportSize(DESKTOP);

    // The same file again is recognised, not counted twice.
    await section.getByLabel('Upload a report').setInputFiles(file);
    await section.getByTestId('upload-duplicate').getByText(/was already received/).waitFor();
    await volume.getByTestId('total-messages').getByText(String(report.messages), { exact: true }).waitFor();

    // The window selector asks again; a 7-day window still holds yesterday's report.
    await section.getByRole('group', { name: 'Report window' }).getByRole('button', { name: '7 days' }).click();
    await volume.getByText(/over the last 7 days/).waitFor();
    await volume.getByTestId('total-messages').getByText(String(report.messages), { exact: true }).waitFor();
  }, 240_000);

  it('shows the free plan the upgrade message, and the intake refuses it', async () => {
    const user = uniqueUser('mailflowfree');
    await registerViaApi(user);
    await markPreferencesSet(user.email);
    const token = await apiToken(user);
    const added = await apiCall<{ domain: { id: number } }>(token, 'POST', '/api/domains', { name: HEALTHY_DOMAIN });
    expect(added.status).toBeLessThan(300);
    const refused = await apiCall<{ message: string }>(token, 'GET', `/api/domains/${added.body.domain.id}/report-addresses`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MAIL_FLOW_PLAN_MESSAGE);

    const { page } = await newPage();
    await login(page, user);
    // The free plan has no domain page at all (features.domainDetail): the page-wide upgrade screen stands in for it.
    await page.goto(`/domains/${HEALTHY_DOMAIN}`);
    await page.getByTestId('upgrade-required').getByRole('link', { name: 'View Subscription Plans' }).waitFor();
    expect(await page.getByTestId('mail-flow-section').count()).toBe(0);
    await captureScreen(page, 'mail-flow-free');
  }, 120_000);
});
