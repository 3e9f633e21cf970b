import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, newPage } from './browser';
import { closeDb } from './session';

/**
 * The browser of one test file: launched before its tests and closed after them, with the database
 * handle the file may have opened. Call it at the top of the file; its `newPage` opens a fresh
 * context (own cookies and storage) in that browser.
 */
export function browserSuite() {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await closeDb();
  });
  return {
    newPage(viewport?: Parameters<typeof newPage>[1]) {
      if (!browser) throw new Error('browserSuite: the browser starts in beforeAll; open pages inside tests');
      return newPage(browser, viewport);
    },
  };
}
