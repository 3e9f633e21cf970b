import { ADMIN_ONLY_MESSAGE } from '@sendwell/contracts';
import { FIXTURE_BLOCKLISTS } from '@sendwell/testing';
import { describe, expect, it } from 'vitest';
import { captureScreen } from './harness/browser';
import { HEALTHY_DOMAIN } from './harness/fixture-dns';
import { addDomainAndWaitForScan, administrator, apiToken, login, registerPaidUser } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

describe('server statistics', () => {
  it('shows the administrator figures measured by every real service, with auto refresh and Refresh Now', async () => {
    const admin = await administrator();
    await addDomainAndWaitForScan(await apiToken(admin), HEALTHY_DOMAIN);

    const { page } = await newPage();
    await login(page, admin);
    await page.getByRole('link', { name: 'Server Stats' }).click();
    await page.waitForURL('**/server-stats');
    await page.getByRole('heading', { name: 'Server Statistics', level: 2 }).waitFor();

    const database = page.getByTestId('card-database');
    await database.getByText(/^\d+ \/ \d+$/).waitFor();
    await page.getByTestId('card-monitoring').getByText('Active', { exact: true }).waitFor();
    expect(Number(await page.getByTestId('card-monitoring').getByText('Total domains').locator('xpath=following-sibling::dd').textContent())).toBeGreaterThanOrEqual(1);
    expect(Number(await page.getByTestId('card-users').getByText('Premium subscribers').locator('xpath=following-sibling::dd').textContent())).toBeGreaterThanOrEqual(1);
    // Every service answered for itself; the queues are BullMQ's own.
    for (const service of ['gateway', 'domains', 'auth', 'billing', 'reports', 'scanner']) {
      const row = page.getByTestId(`service-${service}`);
      await row.waitFor();
      expect(await row.getByText('no answer').count(), service).toBe(0);
    }
    for (const queue of ['scan', 'maintenance', 'notify', 'report', 'intake']) await page.getByTestId(`queue-${queue}`).waitFor();
    // The scanner asked its block lists about their RFC 5782 test points when it started; both fixture lists answer right.
    for (const zone of Object.values(FIXTURE_BLOCKLISTS)) await page.getByTestId(`blocklist-${zone}`).getByText('Healthy').waitFor();
    expect(await page.getByTestId('card-gateway').getByText(/^\d[\d,]*$/).last().textContent()).toMatch(/^\d/);
    // The scan history's partitions: this month and the two ahead the domains service made at start.
    const thisMonth = new Date().toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
    expect(await page.getByTestId('history-months').textContent()).toMatch(new RegExp(`^\\d+ months: ${thisMonth} to `));
    await page.getByTestId('history-last-run').getByText(/Not maintained yet|Last run/).waitFor();
    await captureScreen(page, 'server-stats');

    // Auto Refresh starts off; on, the page says it refreshes every 30 seconds; Refresh Now reads at once either way.
    await page.getByRole('button', { name: 'Auto Refresh Off' }).waitFor();
    expect(await page.getByText('refreshes every 30 seconds').count()).toBe(0);
    await page.getByRole('button', { name: 'Auto Refresh Off' }).click();
    await page.getByRole('button', { name: 'Auto Refresh On' }).waitFor();
    await page.getByText(/refreshes every 30 seconds/).waitFor();
    await page.getByRole('button', { name: 'Auto Refresh On' }).click();
    await page.getByRole('button', { name: 'Auto Refresh Off' }).waitFor();
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/admin/server-stats')), page.getByRole('button', { name: 'Refresh Now' }).click()]);
    expect(response.status()).toBe(200);
  });

  it('refuses everyone else, in the page and on the server', async () => {
    const user = await registerPaidUser('not-admin', 'advanced');
    const { page } = await newPage();
    await login(page, user);
    expect(await page.getByRole('link', { name: 'Server Stats' }).count()).toBe(0);
    await page.goto('/server-stats');
    await page.getByText(ADMIN_ONLY_MESSAGE).waitFor();
    const status = await page.evaluate(async () => (await fetch('/api/admin/server-stats', { credentials: 'include' })).status);
    expect(status).toBe(403);
  });
});
