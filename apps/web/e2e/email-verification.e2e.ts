import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { captureScreen } from './harness/browser';
import { HEALTHY_DOMAIN } from './harness/fixture-dns';
import { login, registerPaidUser } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

describe('email address verification', () => {
  it('verifies one address with its banner and the reference card; Inbox Testing has its own screen', async () => {
    const user = await registerPaidUser('verify', 'basic');
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/email-verification');
    await page.getByRole('heading', { name: 'Email Verification', level: 2 }).waitFor();

    const input = page.getByLabel('Email address to verify');
    const verifyButton = page.getByRole('button', { name: 'Verify', exact: true });
    // Verify is disabled while the trimmed input is empty; Enter on it still says what is missing.
    expect(await verifyButton.isDisabled()).toBe(true);
    await input.fill('   ');
    expect(await verifyButton.isDisabled()).toBe(true);
    await input.press('Enter');
    await page.getByText('Email Required', { exact: true }).waitFor();

    await input.fill(`jane@${HEALTHY_DOMAIN}`);
    await input.press('Enter');
    const result = page.getByTestId('verify-result');
    await result.getByTestId('verify-category').getByText('Safe to Send').waitFor();
    await result.getByText('This email address is valid and safe to send emails to.').waitFor();
    expect(await result.getByTestId('verify-status').textContent()).toBe('valid');
    await result.getByRole('heading', { name: `jane@${HEALTHY_DOMAIN}` }).waitFor();

    await input.fill('jane@gmial.com');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await result.getByText('This email address should not be used for sending emails.').waitFor();
    await result.getByTestId('verify-description').getByText(/Did you mean jane@gmail\.com\?/).waitFor();
    await page.getByTestId('verify-reference').getByText('catch-all domain, mailbox full, role-based email, unknown status').waitFor();
    await captureScreen(page, 'email-verification');

    // A verdict of the Error category (the verifier failed inside) shows a grey badge labelled Error.
    await page.route('**/api/email-verify', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ email: 'jane@example.org', category: 'error', status: 'error', description: 'The address could not be verified because of an internal error. Please try again.', timestamp: new Date().toISOString() }),
      }),
    );
    await input.fill('jane@example.org');
    await verifyButton.click();
    const errorBadge = result.getByTestId('verify-category').getByText('Error', { exact: true });
    await errorBadge.waitFor();
    expect(await errorBadge.getAttribute('data-variant')).toBe('muted');
    await page.unroute('**/api/email-verify');

    // Basic has no bulk mode: the tab says which plans do.
    await page.getByRole('tab', { name: 'Bulk' }).click();
    await page.getByText('Bulk verification is available on the Standard and Advanced plans.').waitFor();

    // Inbox Testing has a screen of its own now; the verifier stays at /email-verification.
    await page.goto('/inbox-placement');
    await page.getByRole('heading', { name: 'Inbox Testing', level: 2 }).waitFor();
  });

  it('verifies a pasted list in batches with progress and downloads the results as CSV (standard)', async () => {
    const user = await registerPaidUser('verify-bulk', 'standard');
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/email-verification');
    await page.getByRole('tab', { name: 'Bulk' }).click();

    const good = Array.from({ length: 110 }, (_, i) => `user${i}@${HEALTHY_DOMAIN}`);
    const bad = ['no-at-sign.test', 'jane..doe@x.test', 'jane@mailinator.com', `user0@${HEALTHY_DOMAIN}`];
    await page.getByLabel('Addresses, one per line or separated by commas').fill([...good, ...bad].join('\n'));
    // The line without an @ is not an address; the repeat is dropped.
    await page.getByTestId('bulk-count').getByText('112 addresses · 1 repeated left out').waitFor();
    await page.getByRole('button', { name: 'Verify all' }).click();
    await page.locator('[data-testid="bulk-progress"][data-state="done"]').waitFor({ timeout: 60_000 });
    await page.getByTestId('bulk-progress').getByText('112 / 112').waitFor();
    expect(await page.getByTestId('bulk-row').count()).toBe(112);
    await page.getByRole('list', { name: 'Results by category' }).getByText('Safe to Send: 110').waitFor();
    await page.getByRole('list', { name: 'Results by category' }).getByText('Do Not Send: 2').waitFor();
    await captureScreen(page, 'email-verification-bulk');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('sendwell-email-verification.csv');
    const csv = (await readFile((await download.path())!, 'utf8')).split('\r\n');
    expect(csv[0]).toBe('email,category,status,description,verified_at');
    expect(csv.filter((line) => line.length > 0)).toHaveLength(113);
    expect(csv.find((line) => line.startsWith('jane@mailinator.com,'))).toMatch(/^jane@mailinator\.com,Do Not Send,disposable,/);
  });
});
