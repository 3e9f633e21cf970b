import { REPUTATION_PART_WEIGHTS } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { captureScreen } from './harness/browser';
import { login, registerPaidUser } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

describe('help and documentation', () => {
  it('gives a paid user support by email, the service status, an FAQ and the way to the documentation', async () => {
    const user = await registerPaidUser('support', 'advanced');
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/support');
    await page.getByRole('heading', { name: 'Help & Support', exact: true, level: 2 }).waitFor();
    const email = page.getByTestId('support-email');
    expect(await email.getByRole('link', { name: 'Email support@sendwell.app' }).getAttribute('href')).toMatch(/^mailto:support@sendwell\.app\?subject=/);
    await email.getByText('Priority support: we reply within 4 business hours.').waitFor();
    await page.getByTestId('support-status').getByText('All systems operational', { exact: true }).waitFor();
    await page.getByText('I fixed a record. When will Sendwell see it?').click();
    await page.getByText(/DNS changes can take from 15 minutes to 24 hours/).waitFor();
    await captureScreen(page, 'support');

    await page.getByRole('link', { name: 'Read the documentation' }).click();
    await page.waitForURL('**/documentation');
    await page.getByRole('heading', { name: 'Documentation', exact: true, level: 2 }).waitFor();
  });

  it('filters the documentation by category and search, with the score rules of the contracts, for a free user too', async () => {
    const user = await registerPaidUser('docs', 'free');
    const { page } = await newPage();
    await login(page, user);
    // Help & Support is a paid feature, but it leads a free user to the documentation, open on every plan.
    await page.getByRole('link', { name: 'Help & Support' }).first().click();
    await page.getByTestId('upgrade-required').waitFor();
    await page.getByRole('link', { name: 'Read the Documentation' }).click();
    await page.waitForURL('**/documentation');
    await page.getByRole('heading', { name: 'Documentation', exact: true, level: 2 }).waitFor();
    const guides = page.locator('[data-testid^="guide-"]');
    expect(await guides.count()).toBe(11);

    await page.getByRole('button', { name: 'Scoring', exact: true }).click();
    expect(await guides.count()).toBe(2);
    const score = page.getByTestId('guide-reputation-score');
    await score.getByRole('button', { name: /How the reputation score is computed/ }).click();
    await score.getByRole('cell', { name: 'Spoofing protection (SPF ending in -all, DMARC enforcing)' }).waitFor();
    await score.getByRole('cell', { name: String(REPUTATION_PART_WEIGHTS.spoofingProtection), exact: true }).first().waitFor();
    await captureScreen(page, 'documentation');

    await page.getByRole('button', { name: 'All', exact: true }).click();
    await page.getByLabel('Search the documentation').fill('quarantine reject');
    await page.getByTestId('guide-dmarc').getByText(/p=quarantine sends failing mail to spam/).waitFor();
    expect(await page.getByTestId('guide-spf').count()).toBe(0);
    await page.getByLabel('Search the documentation').fill('MTA-STS');
    await page.getByTestId('guide-mail-transport').waitFor();
    await page.getByLabel('Search the documentation').fill('kubernetes');
    await page.getByText('No guide matches “kubernetes”.').waitFor();

    // Support is for paid plans: the free user gets the upgrade screen.
    await page.goto('/support');
    await page.getByTestId('upgrade-required').waitFor();
  });
});
