import { API_ROUTES } from '@sendwell/contracts';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from './helpers.js';

let gateway: Gateway;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  gateway = await startGateway();
  origin = await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  // Debian's chromium, as the web app's browser tests use it.
  browser = await chromium.launch({
    executablePath: process.env.PLAYWRIGHT_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
});

describe('/api/docs in a real browser, under the gateway CSP', () => {
  it('loads with its stylesheet and no CSP violation, and lists every call', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    // The favicon is the web app's, not built in this test (503): every other load must succeed.
    page.on('response', (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname !== '/favicon.ico') problems.push(`${response.status()} ${response.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const answer = await page.goto(`${origin}/api/docs`);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    // The stylesheet arrived and applied (a refused one would leave the browser's default width).
    expect(await page.evaluate('getComputedStyle(document.body).maxWidth')).toBe('1120px');
    expect(await page.locator('section.operation').count()).toBe(API_ROUTES.length);
    await page.locator('#getApiDomainsId details summary').first().click();
    await expect.poll(() => page.locator('#getApiDomainsId details pre').first().isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
