import { cpuMsSince, hostileText, withinBudget } from '@sendwell/testing/hostile';
import fc from 'fast-check';
import { simpleParser, type ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { readHeaders } from '../../src/mail-test/headers.js';
import { MAX_LINKS, walkHtml } from '../../src/mail-test/message/html-walk.js';
import { MAX_HEADER_VALUE_CHARS, MAX_HTML_CHARS, MAX_MIME_PARTS, parseMessage, readParsedMail, UnreadableMessageError } from '../../src/mail-test/parse-message.js';
import { buildMessage, nestedMultipart, SENT_AT } from './messages/build-message.js';

/**
 * Issue 26: a test message is whatever the sender makes it. Everything taken from it is capped, and
 * reading it stays linear. The MIME parse and the 2 MB walks get a wider CPU budget than the default
 * (the default is for 32K-character inputs): linear, they take a tenth to a fifth of a second of CPU
 * at these sizes; quadratic, they would take minutes.
 */
const LARGE_INPUT_BUDGET_MS = 1500;

/** `parse`'s CPU, which must stay within `budgetMs` (process CPU: an awaited parse yields, but nothing else runs in this file). */
async function withinAsyncBudget<T>(parse: () => Promise<T>, budgetMs = LARGE_INPUT_BUDGET_MS): Promise<T> {
  const started = process.cpuUsage();
  const result = await parse();
  const elapsed = cpuMsSince(started);
  if (elapsed > budgetMs) throw new Error(`took ${elapsed.toFixed(1)} ms of CPU, over the ${budgetMs} ms budget for hostile input`);
  return result;
}

const PARSE_OPTIONS = { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true } as const;

describe('parsing a hostile test message', () => {
  it('reads MIME nested within the part limit, and refuses deeper nesting at once', async () => {
    const nested = await withinAsyncBudget(() => parseMessage(nestedMultipart(MAX_MIME_PARTS - 10)));
    expect(nested.hasTextPart).toBe(true);
    for (const depth of [MAX_MIME_PARTS + 10, 20_000]) {
      const refused = await withinAsyncBudget(() => parseMessage(nestedMultipart(depth)).catch((error: unknown) => error));
      expect(refused).toBeInstanceOf(UnreadableMessageError);
    }
  });

  it('keeps 200 of 10,000 links', async () => {
    const links = Array.from({ length: 10_000 }, (_, i) => `<a href="https://d${i}.example.com/p?x=${i}">link ${i} https://other${i}.example.org</a>`).join('\r\n');
    const raw = buildMessage({ html: `<p>news</p>${links}` });
    const mail: ParsedMail = await withinAsyncBudget(() => simpleParser(raw, PARSE_OPTIONS));
    const message = withinBudget(() => readParsedMail(mail, raw.length), LARGE_INPUT_BUDGET_MS);
    expect(message.html.links).toHaveLength(MAX_LINKS);
    expect(message.html.linksFound).toBe(10_000);
    expect(message.html.links[199]?.href).toBe('https://d199.example.com/p?x=199');
  });

  it('caps huge header lines, and refuses a header block over its limit', async () => {
    const raw = buildMessage({ subject: 'win '.repeat(50_000), headers: [['X-Filler', 'a'.repeat(200_000)], ['List-Unsubscribe', '<'.repeat(50_000)]] });
    const message = await withinAsyncBudget(() => parseMessage(raw));
    expect(Math.max(...message.headers.map((h) => h.value.length))).toBeLessThanOrEqual(MAX_HEADER_VALUE_CHARS);
    const headers = withinBudget(() => readHeaders(message, SENT_AT));
    expect(headers.value.subject?.length).toBeLessThanOrEqual(998);
    expect(headers.findings.map((f) => f.code)).toEqual(['LIST_UNSUBSCRIBE_UNUSABLE']);

    const oversized = buildMessage({ headers: [['X-Filler', 'a'.repeat(1_000_000)]] });
    expect(await withinAsyncBudget(() => parseMessage(oversized).catch((error: unknown) => error))).toBeInstanceOf(UnreadableMessageError);
  });

  it('walks at most 2 MB of HTML, however it is built', () => {
    const words = withinBudget(() => walkHtml(`<p>${'word '.repeat(600_000)}</p>`.slice(0, MAX_HTML_CHARS)), LARGE_INPUT_BUDGET_MS);
    expect(words.words).toBeGreaterThan(400_000);
    const anchors = withinBudget(() => walkHtml('<a href="https://x.example/">'.repeat(100_000).slice(0, MAX_HTML_CHARS)), LARGE_INPUT_BUDGET_MS);
    expect(anchors.links).toHaveLength(MAX_LINKS);
    // Unclosed elements: the parser's stack grows by one each, so the walk stops at the nesting limit.
    for (const tag of ['<b>', '<div>', '<table><tr><td>']) {
      const unclosed = withinBudget(() => walkHtml(`<a href="https://x.example/">see${tag.repeat(700_000)}`.slice(0, MAX_HTML_CHARS)), LARGE_INPUT_BUDGET_MS);
      expect(unclosed.linksFound).toBe(1);
    }
  });

  it('walks hostile HTML fragments within the default budget', () => {
    fc.assert(
      fc.property(hostileText(['<a href="', '">', '</a>', '<img alt="', '<script>', '</script>', '<style>', '<!--', '-->', '&amp;', 'https://', 'www.']), (html) => {
        const walk = withinBudget(() => walkHtml(html));
        expect(walk.links.length).toBeLessThanOrEqual(MAX_LINKS);
      }),
      { numRuns: 200 },
    );
  });
});
