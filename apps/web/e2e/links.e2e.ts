import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BROKEN_DOMAIN, HEALTHY_DOMAIN } from './harness/fixture-dns';
import { addDomainAndWaitForScan, administrator, apiToken, login, registerPaidUser } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

/** Where the shell's programmatic navigations go (the account menu's items are buttons, not links). */
const SEEDS = ['/dashboard', '/settings', '/subscription'];
/** Pages of one shape (a scan by time, one fixing guide per type) are visited this many times at most. */
const PER_SHAPE = 3;
const MAX_PAGES = 80;

/** A path's shape: names, numbers, ids and timestamps replaced, so a thousand scan links are one shape. */
const shapeOf = (path: string) =>
  path
    .replace(/\d{4}-\d{2}-\d{2}T[\d-]+Z/g, ':time')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':uuid')
    .replace(/\/\d+(?=\/|$)/g, '/:id')
    .replace(new RegExp(`(${HEALTHY_DOMAIN}|${BROKEN_DOMAIN})`.replace(/\./g, '\\.'), 'g'), ':domain');

/** The app's own links on the page: same origin, not the API, not a download. */
async function linksOn(page: Page): Promise<string[]> {
  const hrefs = await page.locator('a[href]').evaluateAll((anchors) =>
    anchors.filter((a) => !a.hasAttribute('download') && a.getAttribute('target') !== '_blank').map((a) => (a as unknown as { href: string }).href),
  );
  const origin = new URL(page.url()).origin;
  return hrefs.flatMap((href) => {
    const url = new URL(href);
    if (url.origin !== origin || url.pathname.startsWith('/api/')) return [];
    return [url.pathname];
  });
}

/**
 * Visits every page reachable by links from the signed-in shell and answers the ones that showed the
 * not-found screen, with the page that linked there.
 */
async function crawl(page: Page): Promise<{ visited: string[]; dead: string[] }> {
  const queue: Array<{ path: string; from: string }> = SEEDS.map((path) => ({ path, from: '(shell)' }));
  const seen = new Set<string>(SEEDS);
  const shapes = new Map<string, number>();
  const visited: string[] = [];
  const dead: string[] = [];
  while (queue.length > 0 && visited.length < MAX_PAGES) {
    const { path, from } = queue.shift()!;
    await page.goto(path);
    // The screen has drawn once the shell's main area or the not-found screen has a heading.
    await page.locator('main h1, main h2, h1').first().waitFor();
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
    visited.push(path);
    if ((await page.getByRole('heading', { name: '404 Page Not Found' }).count()) > 0) {
      dead.push(`${path} (linked from ${from})`);
      continue;
    }
    // A domain's Mail flow loads as it is scrolled towards, and holds links too (other pages have no such section).
    // Scrolled again while the page above it still grows (the checks drawn late push it down).
    const deferred = page.getByTestId('mail-flow-loading');
    for (let i = 0; i < 5 && (await deferred.count()) > 0; i++) {
      await page.evaluate(() => window.scrollTo(0, Number.MAX_SAFE_INTEGER));
      await deferred.waitFor({ state: 'detached', timeout: 3_000 }).catch(() => undefined);
    }
    expect(await deferred.count(), `${path}: Mail flow never loaded`).toBe(0);
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
    // Collapsed sections (a domain's scans on the history page) hold links too; menus and dialogs are left shut.
    const collapsed = page.locator('main button[aria-expanded="false"][aria-controls]:not([aria-haspopup])');
    for (let i = 0; i < 20 && (await collapsed.count()) > 0; i++) await collapsed.first().click();
    // What an expanded section shows may load on demand first.
    await page.locator('main [data-loading]').first().waitFor({ state: 'detached' });
    for (const link of await linksOn(page)) {
      if (seen.has(link)) continue;
      seen.add(link);
      const shape = shapeOf(link);
      const count = shapes.get(shape) ?? 0;
      if (count >= PER_SHAPE) continue;
      shapes.set(shape, count + 1);
      queue.push({ path: link, from: path });
    }
  }
  return { visited, dead };
}

describe('no link in the app ends on the 404 screen', () => {
  it.each(['free', 'basic', 'standard', 'advanced'])('for a %s user', async (plan) => {
    const user = await registerPaidUser(`links-${plan}`, plan);
    const token = await apiToken(user);
    await addDomainAndWaitForScan(token, BROKEN_DOMAIN);
    if (plan !== 'free') await addDomainAndWaitForScan(token, HEALTHY_DOMAIN);
    const { page } = await newPage();
    await login(page, user);
    const { visited, dead } = await crawl(page);
    expect(dead).toEqual([]);
    // The crawl reached the screens this plan links to, not just the seeds.
    expect(visited).toEqual(expect.arrayContaining(['/dashboard', '/settings', '/domain-history', '/support']));
    if (plan !== 'free') {
      expect(visited).toEqual(
        expect.arrayContaining(['/documentation', '/reports', `/domains/${BROKEN_DOMAIN}`, `/fixing-guide/${BROKEN_DOMAIN}/spf`, '/billing']),
      );
      expect(visited.some((path) => path.startsWith(`/domain/${HEALTHY_DOMAIN}/`)), 'a scan of the history').toBe(true);
    }
  });

  it('for the administrator', async () => {
    const admin = await administrator();
    const { page } = await newPage();
    await login(page, admin);
    const { visited, dead } = await crawl(page);
    expect(dead).toEqual([]);
    expect(visited).toContain('/server-stats');
  });
});
