import { STACK_INTAKE_DOMAIN } from '@sendwell/testing';
import { describe, expect, it } from 'vitest';
import { captureScreen } from './harness/browser';
import { BROKEN_DOMAIN, HEALTHY_DOMAIN } from './harness/fixture-dns';
import { addDomainAndWaitForScan, apiToken, login, registerPaidUser } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

describe('fixing guides', () => {
  it('suggests records from the scan, gives steps per DNS provider, copies values and checks whether the fix is live', async () => {
    const user = await registerPaidUser('guide', 'standard');
    const token = await apiToken(user);
    await addDomainAndWaitForScan(token, BROKEN_DOMAIN);
    await addDomainAndWaitForScan(token, HEALTHY_DOMAIN);
    const { page, context } = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await login(page, user);

    // The detail page's Fix action leads to the guide.
    await page.goto(`/domains/${BROKEN_DOMAIN}`);
    await page.getByTestId('check-spf').getByRole('link', { name: 'Fix SPF Record' }).click();
    await page.waitForURL(`**/fixing-guide/${BROKEN_DOMAIN}/spf`);
    await page.getByRole('heading', { level: 2, name: `Fix SPF for ${BROKEN_DOMAIN}` }).waitFor();
    await page.getByTestId('guide-current').getByText('No record found.').waitFor();
    const suggested = page.getByTestId('suggested-record');
    // No mail servers: the record says no one sends as the domain.
    expect(await suggested.getByTestId('value-value').textContent()).toBe('v=spf1 -all');
    expect(await suggested.getByTestId('value-host').textContent()).toBe(BROKEN_DOMAIN);
    await suggested.getByRole('button', { name: 'Copy value' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('v=spf1 -all');

    const steps = page.getByTestId('provider-steps');
    await steps.getByText('Add a record of type TXT with Name @.').waitFor();
    await page.getByLabel('DNS provider').selectOption('route53');
    await steps.getByText(`Add a record of type TXT with Record name ${BROKEN_DOMAIN}.`).waitFor();
    expect(await page.getByRole('link', { name: 'Amazon Route 53 documentation' }).getAttribute('href')).toMatch(/^https:\/\/docs\.aws\.amazon\.com\//);
    await page.getByTestId('propagation-note').getByText(/15 minutes to 24 hours/).waitFor();
    await captureScreen(page, 'fixing-guide');

    // Check again scans the domain; the record is still missing, so the fix is not live.
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.getByText('Fix started', { exact: true }).waitFor();
    await page.getByTestId('fix-verdict').getByText(/^Not live yet: SPF Record still reads /).waitFor({ timeout: 30_000 });

    await page.goto(`/fixing-guide/${BROKEN_DOMAIN}/dmarc`);
    // Reports go to the domain's own address at the intake (its 24-character token), to be shown under Mail flow.
    expect(await page.getByTestId('suggested-record').getByTestId('value-value').textContent()).toMatch(
      new RegExp(`^v=DMARC1; p=none; pct=100; rua=mailto:[0-9a-f]{24}@${STACK_INTAKE_DOMAIN.replaceAll('.', '\\.')}$`),
    );
    expect(await page.getByTestId('suggested-record').getByTestId('value-host').textContent()).toBe(`_dmarc.${BROKEN_DOMAIN}`);
    await page.goto(`/fixing-guide/${BROKEN_DOMAIN}/dkim`);
    expect(await page.getByTestId('suggested-record').getByTestId('value-host').textContent()).toBe(`selector._domainkey.${BROKEN_DOMAIN}`);
    await page.goto(`/fixing-guide/${BROKEN_DOMAIN}/blacklist`);
    await page.getByTestId('guide-current').getByText('Not listed on any of the lists checked.').waitFor();
    await page.getByTestId('guide-delisting').waitFor();

    // A domain whose DMARC already enforces: nothing to change, and Check again confirms it.
    await page.goto(`/fixing-guide/${HEALTHY_DOMAIN}/dmarc`);
    await page.getByText('What is published already does the job: there is nothing to change.').waitFor();
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.getByTestId('fix-verdict').getByText('The fix is live: DMARC now reads Valid.').waitFor({ timeout: 30_000 });
    await captureScreen(page, 'fixing-guide-passing');

    await page.goto(`/fixing-guide/${HEALTHY_DOMAIN}/ssl`);
    await page.getByTestId('guide-message').getByText('Guide not found').waitFor();
    await page.getByText('The requested guide could not be found.').waitFor();
  });

  it("keeps another user's domain out of reach and shows the free plan the upgrade screen", async () => {
    const owner = await registerPaidUser('guide-owner', 'basic');
    await addDomainAndWaitForScan(await apiToken(owner), BROKEN_DOMAIN);
    const stranger = await registerPaidUser('guide-stranger', 'advanced');
    const { page } = await newPage();
    await login(page, stranger);
    await page.goto(`/fixing-guide/${BROKEN_DOMAIN}/spf`);
    await page.getByTestId('guide-message').getByText('Domain not found').waitFor();

    const free = await registerPaidUser('guide-free', 'free');
    const other = await newPage();
    await login(other.page, free);
    await other.page.goto(`/fixing-guide/${BROKEN_DOMAIN}/spf`);
    await other.page.getByTestId('upgrade-required').waitFor();
  });
});
