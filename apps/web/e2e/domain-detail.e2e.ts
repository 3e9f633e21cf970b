import { describe, expect, it } from 'vitest';
import { captureScreen } from './harness/browser';
import { BROKEN_DOMAIN, HEALTHY_DOMAIN } from './harness/fixture-dns';
import { addDomainAndWaitForScan, apiToken, login, registerPaidUser, withDb } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

describe('domain detail (standard plan)', () => {
  it('shows the overview, reputation with its chart, DNS records, blacklist, insights and findings, and follows a scan', async () => {
    const user = await registerPaidUser('detail', 'standard');
    const token = await apiToken(user);
    const healthyId = await addDomainAndWaitForScan(token, HEALTHY_DOMAIN);
    await addDomainAndWaitForScan(token, BROKEN_DOMAIN);
    // The scanner scores every scan; one earlier score is added so the score-over-time chart has a line.
    await withDb(async (db) => {
      const latest = await db.selectFrom('domainReputationHistory').select(['factors', 'score']).where('domainId', '=', healthyId).orderBy('calculatedAt', 'desc').executeTakeFirst();
      if (!latest) throw new Error('the scanner wrote no reputation score');
      await db
        .insertInto('domainReputationHistory')
        .values({ domainId: healthyId, score: Math.max(0, latest.score - 12), factors: JSON.stringify(latest.factors), trend: 'stable', previousScore: null, calculatedAt: new Date(Date.now() - 3 * 86_400_000) })
        .execute();
    });

    const { page } = await newPage();
    await login(page, user);
    await page.goto(`/domains/${HEALTHY_DOMAIN}`);
    await page.getByRole('heading', { level: 2, name: HEALTHY_DOMAIN }).waitFor();

    const overview = page.getByTestId('overview-panel');
    await overview.getByTestId('detail-status').waitFor();
    expect(Number(await overview.getByTestId('detail-scan-count').textContent())).toBeGreaterThanOrEqual(1);

    const reputation = page.getByTestId('reputation-card');
    await reputation.getByTestId('reputation-score').waitFor();
    await reputation.getByText('Email authentication').waitFor();
    await reputation.getByText(/\/ 40$/).waitFor();
    await reputation.getByText(/\/ 35$/).waitFor();
    await reputation.getByText(/\/ 25$/).waitFor();
    await reputation.getByText(/\/ 10/).waitFor();
    await reputation.getByRole('img', { name: /Reputation score over time/ }).waitFor();

    const dns = page.getByTestId('dns-records');
    await dns.getByText('127.0.0.1').first().waitFor();
    await dns.getByText(`mail.${HEALTHY_DOMAIN}`).waitFor();
    await dns.getByText('v=spf1 ip4:127.0.0.1 -all').waitFor();
    await dns.getByText(/v=DMARC1; p=reject/).waitFor();

    const blacklist = page.getByTestId('blacklist-section');
    expect(await blacklist.getByTestId('blacklist-site').count()).toBeGreaterThan(0);
    await page.getByTestId('deliverability-insights').getByTestId('insight-score').waitFor();
    await page.getByTestId('check-spf').waitFor();
    // The mail checks have their own card; the fixture domain publishes no MTA-STS policy.
    const mail = page.getByTestId('mail-check-findings');
    for (const type of ['smtp', 'mta_sts', 'tls_rpt', 'reverse_dns']) await mail.getByTestId(`check-${type}`).waitFor();
    await mail.getByTestId('check-mta_sts').getByText('Not set up', { exact: true }).waitFor();
    await captureScreen(page, 'domain-detail');

    // Scan now: the page follows the scan (queued → running → completed), then shows its results.
    await page.getByRole('button', { name: 'Scan now' }).click();
    // One toast shows at a time (part 1 §9): a fast scan's 'Scan complete' can replace 'Scan Initiated' before it is seen.
    const started = page.getByText(/^(Scan Initiated|Scan complete|Scan Failed)$/).first();
    await started.waitFor();
    expect(await started.textContent(), 'the scan request was refused').not.toBe('Scan Failed');
    await page.locator('[data-testid="scan-progress"][data-status="completed"]').waitFor({ timeout: 30_000 });
    await page.getByText('Scan complete', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Scan now' }).waitFor();

    // The alias form of the route.
    await page.goto(`/domain/${HEALTHY_DOMAIN}`);
    await page.getByRole('heading', { level: 2, name: HEALTHY_DOMAIN }).waitFor();

    // A domain with problems: findings with their RFC clause, fix links to the guides, and a blacklist re-check.
    await page.goto(`/domains/${BROKEN_DOMAIN}`);
    const spf = page.getByTestId('check-spf');
    await spf.waitFor();
    expect(await spf.getByRole('link', { name: 'Fix SPF Record' }).getAttribute('href')).toBe(`/fixing-guide/${BROKEN_DOMAIN}/spf`);
    expect(await page.getByTestId('check-dmarc').getByRole('link', { name: 'Fix DMARC' }).getAttribute('href')).toBe(`/fixing-guide/${BROKEN_DOMAIN}/dmarc`);
    expect(await page.getByTestId('finding').count()).toBeGreaterThan(0);
    await page.getByTestId('insight-projection').waitFor();
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.locator('[data-testid="scan-progress"][data-status="completed"]').waitFor({ timeout: 30_000 });
    await captureScreen(page, 'domain-detail-issues');

    // Someone else's or a missing domain.
    await page.goto('/domains/nobody-owns-this.test');
    await page.getByRole('heading', { name: 'Domain not found' }).waitFor();
    await page.getByText("This domain doesn't exist or you don't have permission to view it.").waitFor();
    await captureScreen(page, 'domain-not-found');
    await page.getByRole('link', { name: 'Back to Domains' }).click();
    await page.waitForURL('**/domains');
  });
});
