import { describe, expect, it } from 'vitest';
import { captureScreen, MOBILE, uniqueUser } from './harness/browser';
import { BROKEN_DOMAIN, HEALTHY_DOMAIN } from './harness/fixture-dns';
import { addDomainAndWaitForScan, apiCall, apiToken, login, registerPaidUser, registerViaApi, withDb } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

/** GET /api/domains, the list (not a domain's own reads nor the deleted ones). */
const DOMAIN_LIST = /\/api\/domains$/;
/** A domain card's own reads: its checks and its reputation score. */
const CARD_READS = /\/api\/domains\/\d+\/(?:checks|reputation)$/;
const SERVER_ERROR = { status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'INTERNAL', message: 'Internal server error' }) };

describe('dashboard (free plan)', () => {
  it('shows the landing banner, the Skip path of the popup, Scan Now and the upgrade screens', async () => {
    const user = uniqueUser('dashfree');
    // A landing-page sign-up with a domain: the sign-up job adds it and starts its first scan.
    await registerViaApi(user, { signupSource: 'landing_page', quickCheckDomain: HEALTHY_DOMAIN, showUpgradeNotification: true });
    const { page } = await newPage();
    await login(page, user);
    await page.getByRole('heading', { name: 'Welcome, Grace' }).waitFor();

    // First-time preferences popup, one second after load; Skip marks preferences set.
    const popup = page.getByRole('dialog', { name: 'Welcome! Set your preferences' });
    await popup.waitFor();
    await popup.getByRole('button', { name: 'Skip' }).click();
    await popup.waitFor({ state: 'hidden' });
    await expect.poll(() => withDb((db) => db.selectFrom('users').select('preferencesSet').where('email', '=', user.email).executeTakeFirstOrThrow()).then((r) => r.preferencesSet)).toBe(true);

    const banner = page.getByTestId('welcome-banner-blue');
    await banner.getByText(HEALTHY_DOMAIN).waitFor();
    expect(await banner.getByRole('link', { name: 'View plans' }).getAttribute('href')).toBe('/subscription');

    // The sign-up domain arrives through a job; reload until it is listed.
    await expect.poll(async () => {
      await page.reload();
      await page.getByRole('heading', { name: 'Domain Overview' }).waitFor();
      return page.getByRole('button', { name: 'Scan Now' }).count();
    }, { timeout: 30_000, interval: 1_000 }).toBe(1);
    await page.getByTestId('last-scan-line').filter({ hasText: /^(Last scan: .+|No scans yet)$/ }).waitFor();
    expect(await page.getByTestId('countdown-chip').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add Domain' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Scan Now' }).click();
    await page.getByText(/^(Scan Initiated|Scan Failed)$/).waitFor();
    // The shell with the free-plan promo counted on the bell, and the bell open on it (account.e2e.ts covers its badge rules).
    await captureScreen(page, 'dashboard');
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await page.getByText('Unlock Premium Features').waitFor();
    await captureScreen(page, 'notification-bell-promo');
    await page.keyboard.press('Escape');

    // A click on a domain opens the Upgrade Required dialog.
    await page.getByRole('button', { name: new RegExp(HEALTHY_DOMAIN) }).click();
    const upgrade = page.getByRole('dialog', { name: 'Upgrade Required' });
    await upgrade.getByRole('button', { name: 'Upgrade Now' }).waitFor();
    await captureScreen(page, 'upgrade-required-dialog');
    await upgrade.getByRole('button', { name: 'Close' }).first().click();
    await upgrade.waitFor({ state: 'hidden' });

    // The domains page is the upgrade-required screen on the free plan.
    await page.goto('/domains');
    const screen = page.getByTestId('upgrade-required');
    await screen.getByRole('heading', { name: 'Upgrade to Access This Feature' }).waitFor();
    for (const item of ['Multi-domain monitoring', 'Real-time email alerts', 'Detailed reports and analytics', 'Historical tracking']) await screen.getByText(item).waitFor();
    expect(await screen.getByRole('link', { name: 'View Subscription Plans' }).getAttribute('href')).toBe('/subscription');
    expect(await screen.getByRole('link', { name: 'Return to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    await captureScreen(page, 'domains-upgrade-required');
    // Only quick-check sign-ups get the banner here.
    expect(await page.getByTestId('quick-check-banner').count()).toBe(0);

    // Dismissing the welcome banner clears the flag on the server and reloads the page without it.
    await page.goto('/dashboard');
    await Promise.all([page.waitForEvent('load'), banner.getByRole('button', { name: 'Dismiss banner' }).click()]);
    const row = await withDb((db) => db.selectFrom('users').select('showUpgradeNotification').where('email', '=', user.email).executeTakeFirstOrThrow());
    expect(row.showUpgradeNotification).toBe(false);
    await page.getByRole('heading', { name: 'Domain Overview' }).waitFor();
    expect(await banner.count()).toBe(0);
  });

  it('greets a quick-check sign-up with the green banner and the /domains banner to the plan comparison', async () => {
    const user = uniqueUser('dashqc');
    await registerViaApi(user, { signupSource: 'quick-check', quickCheckDomain: BROKEN_DOMAIN, showUpgradeNotification: true });
    await withDb((db) => db.updateTable('users').set({ preferencesSet: true }).where('email', '=', user.email).execute());
    const { page } = await newPage(MOBILE);
    await login(page, user);
    const green = page.getByTestId('welcome-banner-green');
    await green.getByText(BROKEN_DOMAIN).waitFor();
    expect(await page.getByTestId('welcome-banner-blue').count()).toBe(0);

    await page.goto('/domains');
    const banner = page.getByTestId('quick-check-banner');
    await banner.getByText(BROKEN_DOMAIN).waitFor();
    expect(await banner.getByRole('link', { name: 'Compare plans' }).getAttribute('href')).toBe('/subscription-comparison');
    await captureScreen(page, 'domains-quick-check-banner');

    // One flag behind both banners: dismissed here, gone from the dashboard too.
    await Promise.all([page.waitForEvent('load'), banner.getByRole('button', { name: 'Dismiss banner' }).click()]);
    await page.getByTestId('upgrade-required').waitFor();
    expect(await banner.count()).toBe(0);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Domain Overview' }).waitFor();
    expect(await green.count()).toBe(0);
  });

  it('saves the popup preferences and refuses a second domain with "Domain Limit Reached"', async () => {
    const user = uniqueUser('dashprefs');
    await registerViaApi(user);
    const { page } = await newPage(MOBILE);
    await login(page, user);
    const popup = page.getByRole('dialog', { name: 'Welcome! Set your preferences' });
    await popup.waitFor();
    await captureScreen(page, 'preferences-popup');
    await popup.getByLabel('Timezone').selectOption('Europe/Paris');
    await popup.getByLabel('Date format').selectOption('yyyy-MM-dd');
    await popup.getByLabel('Currency').selectOption('CAD');
    await popup.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Preferences Updated', { exact: true }).waitFor();
    const row = await withDb((db) => db.selectFrom('users').select(['timezone', 'dateFormat', 'currency', 'preferencesSet']).where('email', '=', user.email).executeTakeFirstOrThrow());
    expect(row).toEqual({ timezone: 'Europe/Paris', dateFormat: 'yyyy-MM-dd', currency: 'CAD', preferencesSet: true });
    expect(await page.evaluate(() => [localStorage.getItem('userTimezone'), localStorage.getItem('userDateFormat')])).toEqual(['Europe/Paris', 'yyyy-MM-dd']);

    // No domain yet: Add Domain. The mobile placeholder reads 'Enter your domain'.
    await page.setViewportSize(MOBILE);
    await page.getByRole('button', { name: 'Add Domain' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Domain' });
    expect(await dialog.getByLabel('Domain name').getAttribute('placeholder')).toBe('Enter your domain');
    // Meanwhile the account's one free domain is added elsewhere (another tab, through the API).
    const token = await apiToken(user);
    expect((await apiCall(token, 'POST', '/api/domains', { name: HEALTHY_DOMAIN })).status).toBe(201);
    await dialog.getByLabel('Domain name').fill(BROKEN_DOMAIN);
    await dialog.getByRole('button', { name: 'Add Domain' }).click();
    await dialog.getByText('Your free plan is limited to 1 domain. Please upgrade to add more domains.', { exact: true }).waitFor();
    await page.getByText('Domain Limit Reached', { exact: true }).waitFor();
    await page.getByText('Your free plan includes 1 domain. To add more domains, please upgrade your plan.', { exact: true }).waitFor();
    // The toast's action is outside the modal (hidden from the accessibility tree while it is open).
    await page.getByRole('button', { name: 'View Plans', includeHidden: true }).waitFor();
    await captureScreen(page, 'domain-limit-reached');
    await dialog.getByRole('link', { name: 'View Plans' }).click();
    await page.waitForURL('**/subscription');
  });
});

describe('domain reads (standard plan)', () => {
  it('says when the list, its checks or its score could not be read, never a skeleton for ever or "after the first daily calculation", and reads again on Try again', async () => {
    const user = await registerPaidUser('dashcard', 'standard');
    await addDomainAndWaitForScan(await apiToken(user), HEALTHY_DOMAIN);
    const { page } = await newPage();
    await login(page, user);
    // The dashboard's own list read first: the failure with Try again, not skeletons and "Loading scan data..." for ever.
    await page.route(DOMAIN_LIST, (route) => route.fulfill(SERVER_ERROR));
    await page.reload();
    const listError = page.getByTestId('domains-read-error');
    await listError.getByText('Failed to load domain data', { exact: true }).waitFor();
    expect(await page.getByText('Loading scan data...').count()).toBe(0);
    await page.unroute(DOMAIN_LIST);
    await listError.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('link', { name: new RegExp(HEALTHY_DOMAIN) }).waitFor();
    expect(await listError.count()).toBe(0);

    await page.route(CARD_READS, (route) => route.fulfill(SERVER_ERROR));
    await page.goto('/domains');
    const card = page.getByTestId('domain-card').filter({ hasText: HEALTHY_DOMAIN });
    // After the app's three retries of each read.
    const checksError = card.getByTestId('checks-read-error');
    const reputationError = card.getByTestId('reputation-read-error');
    await checksError.getByText("Couldn't load this domain's checks.", { exact: true }).waitFor();
    await reputationError.getByText("Couldn't load the reputation score.", { exact: true }).waitFor();
    expect(await card.getByTestId('row-spf').count()).toBe(0);
    expect(await card.getByText(/first daily calculation/).count()).toBe(0);
    await captureScreen(page, 'domain-card-read-errors');

    await page.unroute(CARD_READS);
    // The retries are the card's own buttons: neither opens the domain's page.
    await checksError.getByRole('button', { name: 'Try again' }).click();
    await card.getByTestId('row-spf').getByText('Valid', { exact: true }).waitFor();
    await reputationError.getByRole('button', { name: 'Try again' }).click();
    // The scanner scores every scan, so the real score is there.
    await card.getByTestId('reputation-block').getByText('/100', { exact: true }).waitFor();
    expect(await checksError.count()).toBe(0);
    expect(await reputationError.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/domains');
  });
});
