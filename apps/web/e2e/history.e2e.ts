import { summariseScanDays } from '@sendwell/testing';
import { describe, expect, it } from 'vitest';
import { captureScreen } from './harness/browser';
import { BROKEN_DOMAIN, HEALTHY_DOMAIN } from './harness/fixture-dns';
import { addDomainAndWaitForScan, apiCall, apiToken, login, registerPaidUser, sql, withDb } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

const OLDER_SCANS = 999;
const DNS_CHANGE = 'DMARC policy upgraded from none to reject';

/**
 * A year of history behind a real scan: 999 earlier scans, 15 minutes apart, copied from the real
 * one's checks (the one just before it with DMARC at warning, so the latest reads "DMARC: Warning →
 * Valid"), a score per scan, and the DNS difference the scanner would have raised with the latest.
 */
async function seedHistory(domainId: number): Promise<{ latestScanId: string; latestAt: Date }> {
  return withDb(async (db) => {
    const latest = await db
      .selectFrom('scans')
      .select(['id', 'createdAt', 'checkResultIds', 'dnsSnapshotId'])
      .where('domainId', '=', domainId)
      .where('status', '=', 'completed')
      .orderBy('createdAt', 'desc')
      .executeTakeFirstOrThrow();
    // Stored as the recorder stores an unchanged history: the older scans reference the latest one's
    // results, and the scan just before it a DMARC result of its own (at warning).
    const dmarcWarning = await sql<{ id: number; replaced: number }>`
      insert into check_results (domain_id, type, status, value, message, recommendation, details, created_at)
      select domain_id, type, 'warning', value, message, recommendation, details, created_at
      from check_results where id = any(${latest.checkResultIds}::int[]) and type = 'dmarc'
      returning id, (select id from check_results where id = any(${latest.checkResultIds}::int[]) and type = 'dmarc') as replaced
    `.execute(db);
    const warning = dmarcWarning.rows[0]!;
    await sql`
      with made as (
        insert into scans (domain_id, trigger, status, overall_status, created_at, started_at, completed_at, check_result_ids, dns_snapshot_id)
        select ${domainId}, 'scheduled', 'completed', case when g = 1 then 'warning' else 'healthy' end, t, t, t,
          case when g = 1 then array_replace(${latest.checkResultIds}::int[], ${warning.replaced}, ${warning.id}) else ${latest.checkResultIds}::int[] end,
          ${latest.dnsSnapshotId}
        from generate_series(1, ${OLDER_SCANS}) g, lateral (select ${latest.createdAt}::timestamptz - g * interval '15 minutes' as t) at
        returning id, created_at
      )
      insert into domain_reputation_history (domain_id, scan_id, score, factors, trend, calculated_at)
      select ${domainId}, made.id, 60 + (extract(epoch from made.created_at)::bigint / 900) % 30, '{}'::jsonb, 'stable', made.created_at from made
    `.execute(db);
    await db.updateTable('domains').set((eb) => ({ scanCount: eb('scanCount', '+', OLDER_SCANS) })).where('id', '=', domainId).execute();
    // The timeline's daily summary, as the scan engine would have kept it recording these scans.
    await summariseScanDays(db, [domainId]);
    const dnsCheck = await db
      .selectFrom('checkResults')
      .select('id')
      .where('id', 'in', latest.checkResultIds ?? [])
      .where('type', '=', 'dns_performance')
      .executeTakeFirst();
    const owner = await db.selectFrom('domains').select('userId').where('id', '=', domainId).executeTakeFirstOrThrow();
    await db
      .insertInto('domainAlerts')
      .values({
        userId: owner.userId,
        domainId,
        scanId: latest.id,
        checkId: dnsCheck?.id ?? null,
        type: 'dns_change',
        severity: 'low',
        title: `${HEALTHY_DOMAIN}: ${DNS_CHANGE}`,
        message: `Since the previous scan: ${DNS_CHANGE}.`,
        details: JSON.stringify({ changes: [{ summary: DNS_CHANGE, impact: 'other' }] }),
      })
      .execute();
    return { latestScanId: latest.id, latestAt: latest.createdAt };
  });
}

describe('domain history and the scan screens', () => {
  it('lists every domain with a timeline of days and a windowed list of 1,000 scans paged as it scrolls, opens a scan by time and by id, and restores a deleted domain', async () => {
    const user = await registerPaidUser('history', 'standard');
    const token = await apiToken(user);
    const healthyId = await addDomainAndWaitForScan(token, HEALTHY_DOMAIN);
    const brokenId = await addDomainAndWaitForScan(token, BROKEN_DOMAIN);
    const { latestScanId, latestAt } = await seedHistory(healthyId);
    expect((await apiCall(token, 'DELETE', `/api/domains/${brokenId}`)).status).toBe(200);

    const { page } = await newPage();
    // The history reads the page asks for: the overview, each domain's pages (`before=` the cursor) and the days.
    const historyCalls: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/domain-checks/history' || url.pathname.endsWith('/history/days')) historyCalls.push(url);
    });
    const pageCalls = () => historyCalls.filter((u) => u.pathname === '/api/domain-checks/history' && u.searchParams.get('domainId') === String(healthyId));
    await login(page, user);
    // A failed read of the history says its HTTP status (part 2 §8: here the gateway's read limit), and
    // Try again reads it again.
    const overview = (url: URL) => url.pathname === '/api/domain-checks/history' && url.search === '';
    await page.route(overview, (route) => route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ message: 'Too many requests' }) }));
    await page.goto('/domain-history');
    await page.getByRole('heading', { name: 'Domain History', level: 2 }).waitFor();
    // How far back the history goes is the plan's (contracts' scanHistoryDays).
    expect(await page.getByTestId('history-window').textContent()).toContain('Standard Monitoring keeps 180 days of scan history.');
    const readError = page.getByTestId('history-read-error');
    await readError.getByText('Failed to load: 429', { exact: true }).waitFor();
    await page.unroute(overview);
    await readError.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('Its history is restored if you re-add it within 90 days.', { exact: false }).waitFor();

    const deleted = page.getByTestId(`history-${BROKEN_DOMAIN}`);
    await deleted.getByTestId('deleted-badge').waitFor();
    await deleted.getByText('Scan details removed for deleted domain').waitFor();

    const healthy = page.getByTestId(`history-${HEALTHY_DOMAIN}`);
    await healthy.getByText(`${OLDER_SCANS + 1} scans`).waitFor();
    // The overview carries each domain's newest page only.
    expect(historyCalls.some((u) => u.pathname === '/api/domain-checks/history' && u.search === '')).toBe(true);
    await healthy.getByRole('button', { expanded: false }).click();
    // The timeline is drawn from the daily summary: ten and a half days of scans 15 minutes apart.
    await healthy.getByTestId('history-timeline').getByRole('img', { name: new RegExp(`^\\S+: \\d+ days with ${OLDER_SCANS + 1} scans from .* score from`) }).waitFor();
    expect(historyCalls.some((u) => u.pathname === `/api/domains/${healthyId}/history/days`)).toBe(true);
    // The list holds the first page of 100 scans, of the 1,000 the card counts.
    const list = healthy.getByTestId('scan-list').getByRole('list');
    await healthy.getByRole('list', { name: `100 of ${OLDER_SCANS + 1} scans loaded`, exact: true }).waitFor();
    expect(pageCalls().map((u) => [u.searchParams.get('limit'), u.searchParams.get('before')])).toEqual([['100', null]]);
    expect(await list.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThanOrEqual(100 * 76);
    expect(await list.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(110 * 76);
    // Windowed: a screenful of rows in the page.
    const rows = list.getByTestId('scan-row');
    expect(await rows.count()).toBeLessThan(30);
    const latest = rows.first();
    await latest.getByText('Latest').waitFor();
    const changes = await latest.getByTestId('scan-changes').textContent();
    expect(changes).toContain('DMARC: Warning → Valid');
    expect(changes).toContain(DNS_CHANGE);
    await latest.getByText(/^6 checks · \d\/6 checks passed/).waitFor();
    await rows.nth(1).getByText(/checks passed · score \d+$/).waitFor();
    // Every scan of the list also links to its own page by id (the router's scan detail route).
    const detailLinks = await list.getByTestId('scan-detail-link').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(detailLinks).toHaveLength(await rows.count());
    expect(detailLinks[0]).toBe(`/domain-history/${HEALTHY_DOMAIN}/scan/${latestScanId}`);
    expect(detailLinks.every((href) => /^\/domain-history\/[^/]+\/scan\/[0-9a-f-]{36}$/.test(href) && href.includes(HEALTHY_DOMAIN))).toBe(true);
    expect(new Set(detailLinks).size).toBe(detailLinks.length);
    await captureScreen(page, 'domain-history');

    // Scrolling to the end of the loaded rows loads the next page, `before` the first page's cursor.
    const scroller = healthy.getByTestId('scan-list');
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await healthy.getByRole('list', { name: `200 of ${OLDER_SCANS + 1} scans loaded`, exact: true }).waitFor();
    expect(pageCalls()).toHaveLength(2);
    expect(pageCalls()[1]!.searchParams.get('before')).toBeTruthy();
    expect(await rows.count()).toBeLessThan(30);
    // Scrolling on reaches the oldest scan after ten pages of 100.
    for (let loaded = 300; loaded <= OLDER_SCANS + 1; loaded += 100) {
      expect(await list.getByText('First scan kept').count()).toBe(0);
      await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await healthy.getByRole('list', { name: loaded > OLDER_SCANS ? `${loaded} scans` : `${loaded} of ${OLDER_SCANS + 1} scans loaded`, exact: true }).waitFor();
    }
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await list.getByText('First scan kept').waitFor();
    expect(pageCalls()).toHaveLength(10);
    expect(pageCalls().slice(1).every((u) => u.searchParams.get('before'))).toBe(true);
    expect(await healthy.getByTestId('scan-list-more').count()).toBe(0);
    await scroller.evaluate((el) => el.scrollTo(0, 0));
    await latest.getByText('Latest').waitFor();

    // A scan by time: the dashed timestamp of its address, what changed, its checks, lists and records.
    await latest.getByRole('link').first().click();
    const dashed = latestAt.toISOString().replace(/[:.]/g, '-');
    await page.waitForURL(`**/domain/${HEALTHY_DOMAIN}/${dashed}`);
    const view = page.getByTestId('scan-view');
    await view.getByRole('heading', { name: HEALTHY_DOMAIN, level: 2 }).waitFor();
    await view.getByTestId('scan-what-changed').getByText('DMARC: Warning → Valid').waitFor();
    await view.getByTestId('scan-passed').getByText(/^\d\/6 checks passed$/).waitFor();
    await view.getByTestId('check-spf').waitFor();
    expect(await view.getByTestId('blacklist-site').count()).toBeGreaterThan(0);
    await view.getByTestId('dns-records').getByText('v=spf1 ip4:127.0.0.1 -all').waitFor();
    await captureScreen(page, 'scan-at-time');

    // Within ten minutes of a scan still finds it; further away, or not a time, does not.
    await page.goto(`/domain/${HEALTHY_DOMAIN}/${new Date(latestAt.getTime() + 5 * 60_000).toISOString().replace(/[:.]/g, '-')}`);
    await view.getByTestId('scan-passed').waitFor();
    await page.goto(`/domain/${HEALTHY_DOMAIN}/2001-01-01T00-00-00-000Z`);
    await page.getByTestId('scan-error').getByText('No scan data found').waitFor();
    await page.goto(`/domain/${HEALTHY_DOMAIN}/yesterday`);
    await page.getByTestId('scan-error').getByText('Invalid date').waitFor();
    await page.goto(`/domain/someone-else.test/${dashed}`);
    await page.getByTestId('scan-error').getByText("Domain not found or you don't have access to it.").waitFor();

    // A scan by id whose read fails: without an answer, with a status, and with an answer that is no
    // scan (the "pattern" error), which shows the generic summary instead (part 2 §2.4, §8).
    const scanRead = `**/api/domain-checks/${latestScanId}`;
    await page.route(scanRead, (route) => route.abort('failed'));
    await page.goto(`/domain-history/${HEALTHY_DOMAIN}/scan/${latestScanId}`);
    await page.getByTestId('scan-error').getByText('Network error occurred', { exact: true }).waitFor();
    await page.unroute(scanRead);
    await page.route(scanRead, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' }));
    await page.reload();
    await page.getByTestId('scan-error').getByText('Failed to load: 500', { exact: true }).waitFor();
    await page.unroute(scanRead);
    await page.route(scanRead, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html><body></body></html>' }));
    await page.reload();
    const available = page.getByTestId('scan-summary');
    await available.getByRole('heading', { name: 'Scan available' }).waitFor();
    await available.getByRole('link', { name: `View ${HEALTHY_DOMAIN}` }).waitFor();
    await page.unroute(scanRead);

    // A scan by id, and ids that are not the user's scan of that domain.
    await page.goto(`/domain-history/${HEALTHY_DOMAIN}/scan/${latestScanId}`);
    await view.getByText('Historical scan').waitFor();
    await view.getByTestId('check-dmarc').waitFor();
    await captureScreen(page, 'history-scan');
    await page.goto(`/domain-history/${BROKEN_DOMAIN}/scan/${latestScanId}`);
    await page.getByTestId('scan-error').getByText('Scan details not found').waitFor();
    await page.goto(`/domain-history/${HEALTHY_DOMAIN}/scan/00000000-0000-4000-8000-000000000000`);
    await page.getByTestId('scan-error').getByText('Scan details not found').waitFor();

    // The deleted domain's last-scan summary, and Restore from it.
    await page.goto('/domain-history');
    await deleted.getByRole('link', { name: `View details of ${BROKEN_DOMAIN}` }).click();
    await page.waitForURL(`**/domain-history/${BROKEN_DOMAIN}/last-scan`);
    const summary = page.getByTestId('last-scan');
    await summary.getByText('DELETED', { exact: true }).waitFor();
    await summary.getByTestId('last-scan-note').waitFor();
    await captureScreen(page, 'last-scan');
    await summary.getByRole('button', { name: 'Restore Domain' }).click();
    await page.getByText('Domain Restored Successfully', { exact: true }).waitFor();
    await page.waitForURL('**/domain-history');
    await page.getByTestId(`history-${BROKEN_DOMAIN}`).getByRole('button', { expanded: false }).waitFor();
    expect(await page.getByTestId('deleted-badge').count()).toBe(0);
    // 1,000 scans seeded and walked through: past the default minute when the whole suite shares two cores.
  }, 120_000);

  it("keeps another user's scans out of reach, and lists the owner's alerts of the last 24 hours apart in the bell", async () => {
    const owner = await registerPaidUser('history-owner', 'advanced');
    const ownerToken = await apiToken(owner);
    const domainId = await addDomainAndWaitForScan(ownerToken, HEALTHY_DOMAIN);
    const scanId = await withDb(async (db) => (await db.selectFrom('scans').select('id').where('domainId', '=', domainId).executeTakeFirstOrThrow()).id);

    // The bell (alerts on advanced): an alert counts as recent within 24 hours (part 1 §4). Alerts of 2 h
    // and 30 h ago, as delivered ones (the scanner cannot date an alert back); the owner's others are cleared
    // so the two are the bell's five newest.
    await withDb(async (db) => {
      const { userId } = await db.selectFrom('domains').select('userId').where('id', '=', domainId).executeTakeFirstOrThrow();
      await db.deleteFrom('domainAlerts').where('userId', '=', userId).execute();
      const alert = (title: string, hoursAgo: number) => {
        const at = new Date(Date.now() - hoursAgo * 3_600_000);
        return { userId, domainId, scanId, type: 'status_change', severity: 'medium', title, message: `${title}.`, isSent: true, notifiedAt: at, createdAt: at };
      };
      await db.insertInto('domainAlerts').values([alert('Status changed two hours ago', 2), alert('Status changed yesterday', 30)]).execute();
    });
    const ownerPage = (await newPage()).page;
    await login(ownerPage, owner);
    await ownerPage.getByRole('button', { name: /^Notifications/ }).click();
    const recent = ownerPage.getByRole('list', { name: 'Last 24 hours' });
    await recent.getByText('Status changed two hours ago').waitFor();
    expect(await recent.textContent()).toContain(`${HEALTHY_DOMAIN} · 2h ago`);
    const earlier = ownerPage.getByRole('list', { name: 'Earlier' });
    await earlier.getByText('Status changed yesterday').waitFor();
    expect(await earlier.textContent()).toContain(`${HEALTHY_DOMAIN} · 1d ago`);
    expect(await recent.getByText('Status changed yesterday').count()).toBe(0);
    await captureScreen(ownerPage, 'notification-bell-alerts');

    const stranger = await registerPaidUser('history-stranger', 'advanced');
    const { page } = await newPage();
    await login(page, stranger);
    await page.goto('/domain-history');
    await page.getByTestId('history-empty').getByText('No Domains Yet').waitFor();
    await captureScreen(page, 'domain-history-empty');
    await page.goto(`/domain-history/${HEALTHY_DOMAIN}/scan/${scanId}`);
    await page.getByTestId('scan-error').getByText('Scan details not found').waitFor();
    await page.goto(`/domain-history/${HEALTHY_DOMAIN}/last-scan`);
    await page.getByTestId('scan-error').getByText('Failed to load scan details. The scan data may no longer be available.').waitFor();
  });

  it('shows the free plan the upgrade screen instead of history and domain details', async () => {
    const user = await registerPaidUser('history-free', 'free');
    const { page } = await newPage();
    await login(page, user);
    for (const path of ['/domain-history', `/domain/${HEALTHY_DOMAIN}/2026-01-01T00-00-00-000Z`, `/domain-history/${HEALTHY_DOMAIN}/last-scan`, `/domains/${HEALTHY_DOMAIN}`]) {
      await page.goto(path);
      await page.getByTestId('upgrade-required').waitFor();
    }
  });
});
