import { describe, expect, it } from 'vitest';
import { captureScreen } from './harness/browser';
import { BROKEN_DOMAIN, HEALTHY_DOMAIN } from './harness/fixture-dns';
import { login, registerPaidUser } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

describe('domains page (standard plan)', () => {
  it('adds a domain with validation, shows its scan results, removes it and re-adds it from Recently Deleted', async () => {
    const user = await registerPaidUser('domains', 'standard');
    const { page } = await newPage();
    await login(page, user);

    await page.goto('/domains');
    await page.getByRole('heading', { level: 1, name: 'Domains' }).waitFor();
    await page.getByText('No domains added yet', { exact: true }).waitFor();
    await page.getByText('Add your first domain to start monitoring its health.', { exact: true }).waitFor();
    await page.getByText('No domains deleted in the last 30 days', { exact: true }).waitFor();
    await captureScreen(page, 'domains-empty');

    // Validation messages of the contracts' schema.
    await page.getByRole('button', { name: 'Add Domain' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add Domain' });
    const input = dialog.getByLabel('Domain name');
    expect(await input.getAttribute('placeholder')).toBe('example.com');
    await input.fill('ab');
    await dialog.getByRole('button', { name: 'Add Domain' }).click();
    await dialog.getByText('Domain must be at least 4 characters.', { exact: true }).waitFor();
    await input.fill('not a domain');
    await dialog.getByRole('button', { name: 'Add Domain' }).click();
    await dialog.getByText('Please enter a valid domain name (e.g., example.com, domain.co.uk, example.com.au)', { exact: true }).waitFor();
    await captureScreen(page, 'add-domain-dialog');

    // Trimmed and lower-cased before it is sent.
    await input.fill(`  ${HEALTHY_DOMAIN.toUpperCase()}  `);
    const post = page.waitForRequest((r) => r.url().endsWith('/api/domains') && r.method() === 'POST');
    await dialog.getByRole('button', { name: 'Add Domain' }).click();
    expect(JSON.parse((await post).postData() ?? '{}')).toEqual({ name: HEALTHY_DOMAIN });
    await dialog.waitFor({ state: 'hidden' });

    const card = page.getByTestId('domain-card').filter({ hasText: HEALTHY_DOMAIN });
    await card.waitFor();
    // The first scan completes against the fixture DNS; the card's rows fill in with the display mappings.
    await expect.poll(async () => {
      await page.reload();
      await card.waitFor();
      return card.getByTestId('row-spf').textContent();
    }, { timeout: 30_000, interval: 1_000 }).toContain('Valid');
    expect(await card.getByTestId('row-blacklist').textContent()).toContain('Clean');
    expect(await card.getByTestId('row-dmarc').textContent()).toContain('Valid');
    await card.getByText(/^Last checked: /).waitFor();
    await card.getByTestId('reputation-block').waitFor();
    await captureScreen(page, 'domains');

    // Remove with confirmation (data retained for 90 days).
    await card.getByRole('button', { name: `Remove ${HEALTHY_DOMAIN}` }).click();
    const confirm = page.getByRole('dialog', { name: `Remove ${HEALTHY_DOMAIN}?` });
    await confirm.getByText(/retained for 90 days/).waitFor();
    await confirm.getByRole('button', { name: 'Remove Domain' }).click();
    await page.getByText('Domain removed', { exact: true }).waitFor();
    await page.getByText(`${HEALTHY_DOMAIN} has been removed from monitoring. Data will be retained for 90 days.`, { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/domains');

    const row = page.getByTestId('deleted-row').filter({ hasText: HEALTHY_DOMAIN });
    await row.waitFor();
    expect(await row.getByTestId('days-left').textContent()).toBe('30 days left');
    await row.getByText('to restore', { exact: true }).waitFor();
    await row.getByText(/Deleted [A-Z][a-z]{2} \d{1,2}/).waitFor();
    expect(await page.getByTestId('deleted-count').textContent()).toBe('1');
    await captureScreen(page, 'domains-recently-deleted');

    await row.getByRole('button', { name: `Re-add ${HEALTHY_DOMAIN}` }).click();
    await page.getByText('Domain Restored', { exact: true }).waitFor();
    await page.getByText(`${HEALTHY_DOMAIN} has been restored to your active domains`, { exact: true }).waitFor();
    await card.waitFor();
    await page.getByText('No domains deleted in the last 30 days', { exact: true }).waitFor();

    // A second domain, whose checks fail, shows the error mappings.
    await page.getByRole('button', { name: 'Add Domain' }).first().click();
    await page.getByRole('dialog', { name: 'Add Domain' }).getByLabel('Domain name').fill(BROKEN_DOMAIN);
    await page.getByRole('dialog', { name: 'Add Domain' }).getByRole('button', { name: 'Add Domain' }).click();
    const broken = page.getByTestId('domain-card').filter({ hasText: BROKEN_DOMAIN });
    await broken.waitFor();
    await broken.getByRole('link', { name: 'View Details' }).click();
    await page.waitForURL(`**/domains/${BROKEN_DOMAIN}`);
  });
});
