import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { reportDocumentSchema } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { captureScreen, screenshot } from './harness/browser';
import { BROKEN_DOMAIN, HEALTHY_DOMAIN } from './harness/fixture-dns';
import { addDomainAndWaitForScan, apiToken, login, registerPaidUser } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

const escape = (s: string) => s.replace(/\./g, '\\.');
/** GET /api/reports only (not its generate, download or delete calls). */
const REPORTS_LIST = /\/api\/reports$/;
const SERVER_ERROR = { status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'INTERNAL', message: 'Internal server error' }) };

describe('reports', () => {
  it('generates reports with progress, downloads every format, previews the HTML and bulk deletes (standard)', async () => {
    const user = await registerPaidUser('reports', 'standard');
    const token = await apiToken(user);
    await addDomainAndWaitForScan(token, HEALTHY_DOMAIN);
    await addDomainAndWaitForScan(token, BROKEN_DOMAIN);
    const { page } = await newPage();
    // A step that does not happen fails at that step, not at the test's own timeout.
    page.setDefaultTimeout(20_000);
    await login(page, user);
    // The list read failing says so (after the app's three retries), never "No reports yet"; Try again reads it again.
    await page.route(REPORTS_LIST, (route) => route.fulfill(SERVER_ERROR));
    await page.goto('/reports');
    const readError = page.getByTestId('reports-read-error');
    await readError.getByText("Couldn't load your reports.", { exact: true }).waitFor();
    expect(await page.getByText('No reports yet').count()).toBe(0);
    expect(await page.getByText(/reports stored/).count()).toBe(0);
    await page.unroute(REPORTS_LIST);
    await readError.getByRole('button', { name: 'Try again' }).click();
    await readError.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Reports', exact: true, level: 2 }).waitFor();
    await page.getByText('No reports yet', { exact: true }).waitFor();
    await captureScreen(page, 'reports-empty');

    await page.getByRole('button', { name: 'Generate Reports' }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate Reports' });
    await dialog.waitFor();
    expect(await dialog.getByRole('checkbox', { checked: true }).count()).toBe(2);
    await dialog.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByText('Reports Generated', { exact: true }).waitFor();
    await page.getByText('2 reports queued for generation.', { exact: true }).waitFor();
    const cards = page.getByTestId('report-card');
    await page.locator('[data-testid="report-card"][data-status="completed"]').nth(1).waitFor({ timeout: 30_000 });
    expect(await cards.count()).toBe(2);
    expect(await page.getByTestId('reports-progress').count()).toBe(0);
    await page.getByText('2 / 100 reports stored.').waitFor();

    // Every format downloads under the server's file name; the PDF and the JSON read right.
    const card = cards.filter({ hasText: BROKEN_DOMAIN });
    for (const [label, ext] of [
      ['PDF', 'pdf'],
      ['HTML', 'html'],
      ['JSON', 'json'],
      ['Text', 'txt'],
    ] as const) {
      await card.getByRole('button', { name: `Download report for ${BROKEN_DOMAIN}` }).click();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: label, exact: true }).click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^sendwell-${escape(BROKEN_DOMAIN)}-\\d{4}-\\d{2}-\\d{2}\\.${ext}$`));
      const file = await download.path();
      if (ext === 'pdf') expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain(BROKEN_DOMAIN);
      if (ext === 'json') expect(reportDocumentSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).domain.name).toBe(BROKEN_DOMAIN);
      if (ext === 'txt') expect(readFileSync(file, 'utf8')).toContain('Action plan');
      await page.getByText('Download complete', { exact: true }).waitFor();
    }

    // The preview shows the HTML report in the page.
    await card.getByRole('button', { name: `Preview report for ${BROKEN_DOMAIN}` }).click();
    const preview = page.getByRole('dialog', { name: `Preview: ${BROKEN_DOMAIN}` });
    await preview.waitFor();
    await page.frameLocator('[data-testid="report-preview"]').getByRole('heading', { name: BROKEN_DOMAIN, level: 1 }).waitFor();
    // A screenshot only: axe cannot run inside the script-less sandboxed frame (the renderer's own test runs axe on the report).
    await screenshot(page, 'reports-preview');
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });
    await captureScreen(page, 'reports');

    // Selection mode: nothing selected is refused; all selected are deleted one after another.
    await page.getByRole('button', { name: 'Select Reports' }).click();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByText('Please select at least one report to delete.', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Select Reports' }).click();
    await page.getByRole('button', { name: 'Select all' }).click();
    await page.getByText('2 selected', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete 2 reports?' });
    await confirm.getByText(/about 0\.04 MB/).waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Reports Deleted', { exact: true }).waitFor();
    await page.getByText('No reports yet', { exact: true }).waitFor();
  }, 120_000);

  it('shows the free plan the upgrade screen', async () => {
    const user = await registerPaidUser('reports-free', 'free');
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/reports');
    await page.getByTestId('upgrade-required').getByText('Upgrade to Access This Feature').waitFor();
    expect(await page.getByRole('button', { name: 'Generate Reports' }).count()).toBe(0);
  });
});
