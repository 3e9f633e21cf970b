import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { STRIPE_JS_STAND_IN } from '@sendwell/testing';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { WEB_DIR } from './stack';

export const SCREENSHOT_DIR = join(WEB_DIR, 'e2e', 'screenshots');
export const DESKTOP = { width: 1280, height: 800 } as const;
export const MOBILE = { width: 390, height: 844 } as const;

/** Debian's chromium, headless, without the background services a test never needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.PLAYWRIGHT_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/**
 * Stripe, as the browser sees it, on loopback: Stripe.js from js.stripe.com is the stand-in script,
 * and its calls to api.stripe.com go to the Stripe stand-in billing runs on. The page keeps its real
 * CSP, which names exactly those two origins.
 */
async function routeStripe(context: BrowserContext): Promise<void> {
  await context.route('https://js.stripe.com/**', (route) => route.fulfill({ status: 200, contentType: 'application/javascript', body: STRIPE_JS_STAND_IN }));
  const standIn = inject('stripeUrl');
  await context.route('https://api.stripe.com/**', async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `${standIn}${url.pathname}${url.search}` });
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
}

/** A fresh context (own cookies and local storage) against the stack's gateway. */
export async function newPage(browser: Browser, viewport: { width: number; height: number } = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: inject('baseUrl'), viewport, locale: 'en-AU', timezoneId: 'Australia/Sydney' });
  await routeStripe(context);
  const page = await context.newPage();
  return { context, page };
}

/**
 * Every finite animation and transition on the page run to its end (a spinner's endless one is left):
 * the theme fades colours for 150 ms, and a contrast check in the middle of it reads colours that are
 * never shown for long.
 */
async function settleTransitions(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** axe-core on the current page, its transitions settled: no serious or critical violations. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  await settleTransitions(page);
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  if (summary.length > 0) throw new Error(`Accessibility of ${label}:\n${summary.join('\n')}`);
}

/**
 * Nothing wider than the viewport: a page that scrolls sideways on a phone hides half of every line.
 * Names the widest elements (tag, class, width) so the culprit is found without a screenshot.
 */
export async function expectNoSidewaysScroll(page: Page, label: string): Promise<void> {
  const overflow = await page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    if (root.scrollWidth <= width) return null;
    const describe = (el: BrowserElement) => `<${el.tagName.toLowerCase()} class="${String(el.getAttribute('class') ?? '').slice(0, 70)}">`;
    const widthWithout = (el: BrowserElement) => {
      const before = el.style.display;
      el.style.display = 'none';
      const without = root.scrollWidth;
      el.style.display = before;
      return without;
    };
    // Down from <body>: the child whose absence narrows the page most, then its child, and so on.
    const path: string[] = [];
    let at: BrowserElement | undefined = document.body;
    const current = root.scrollWidth;
    while (at) {
      let best: { el: BrowserElement; width: number } | undefined;
      for (const child of at.children) {
        const without = widthWithout(child);
        if (without < current && (!best || without < best.width)) best = { el: child, width: without };
      }
      at = best?.el;
      if (best) path.push(`${describe(best.el)} (${best.width <= width ? 'the page fits without it' : `${best.width} px without it`})`);
    }
    const culprit = path.length > 0 ? path.slice(-5).reverse().join('\n  in ') : 'nothing narrows it alone';
    return { scrollWidth: root.scrollWidth, width, culprit: `${culprit}` };
  });
  if (overflow) throw new Error(`${label} is ${overflow.scrollWidth} px wide in a ${overflow.width} px window; the widest part:\n${overflow.culprit}`);
}

/**
 * Screenshots are for people to look at, not assertions, and a full-page capture is the costliest
 * thing a browser test does (four a screen): taken only when `E2E_SCREENSHOTS=1`, so `pnpm test` spends
 * its time on what it checks.
 */
export const SCREENSHOTS = process.env.E2E_SCREENSHOTS === '1';

/** Saves `e2e/screenshots/{name}-{width}.png` (full page; `-dark` in the dark theme) when SCREENSHOTS is on. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const dark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  const width = `${page.viewportSize()?.width ?? 0}${dark ? '-dark' : ''}`;
  // A full-page capture draws beyond the viewport, where `render-when-visible` sections are skipped.
  // From the top: a sticky header would otherwise be drawn where the page was scrolled to.
  await page.evaluate(() => window.scrollTo(0, 0));
  const drawAll = await page.addStyleTag({ content: '.render-when-visible { content-visibility: visible !important; }' });
  // Transitions are finished first: a theme switch would otherwise be caught half-way.
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true, animations: 'disabled' });
  await drawAll.evaluate((element) => element.remove());
}

/**
 * The accessibility check (colour contrast included) at 1280 and 390 px and in the dark theme, with
 * screenshots at 1280 and 390 px in both themes when SCREENSHOTS is on, for one screen. The app follows the system theme until the user
 * picks one, so the dark captures emulate a dark system.
 */
export async function captureScreen(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await page.setViewportSize(DESKTOP);
  await screenshot(page, name);
  await page.setViewportSize(MOBILE);
  await expectAccessible(page, `${name} at 390 px`);
  await expectNoSidewaysScroll(page, `${name} at 390 px`);
  await screenshot(page, name);
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    await screenshot(page, name);
    await page.setViewportSize(DESKTOP);
    await expectAccessible(page, `${name} in the dark theme`);
    await screenshot(page, name);
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(DESKTOP);
  }
}

let counter = 0;
/** A unique user for one test: every test registers its own. */
export function uniqueUser(label = 'user') {
  const id = `${label}${Date.now().toString(36)}${(counter++).toString(36)}`;
  return { username: id, email: `${id}@mail.test`, password: 'correct-horse-9' };
}
