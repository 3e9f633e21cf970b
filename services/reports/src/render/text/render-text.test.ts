import { describe, expect, it } from 'vitest';
import { edgeReportDocument } from '../edge-document.js';
import { sampleReportDocument } from '../sample-document.js';
import { renderText, TEXT_WIDTH } from './render-text.js';

describe('renderText', () => {
  it('says what the other formats say, in lines of at most 78 characters', () => {
    const text = renderText(sampleReportDocument({ kind: 'full', days: 90 }), { appUrl: 'https://app.sendwell.test' });
    for (const expected of ['example-shop.com', 'Reputation score: 71/100 (Good)', 'Email authentication', '30.8 / 40', '1. Get 203.0.113.25 removed from Spamhaus ZEN (+4 points)', 'Guide: https://app.sendwell.test/fixing-guide/example-shop.com/blacklist', '[Error] SPF_TOO_MANY_LOOKUPS (RFC 7208 §4.6.4)', 'Spamhaus ZEN', 'Last 30 days', 'Last 90 days', 'Days per status', 'Overall status', 'DMARC policy downgraded from quarantine to none', 'Sender requirements', 'One-click unsubscribe: Not met']) {
      expect(text, expected).toContain(expected);
    }
    for (const line of text.split('\n')) {
      // Only a single unbreakable token (a URL, a key) may run past the width.
      if (line.length > TEXT_WIDTH) expect(line.trim().split(/\s+/).some((w) => w.length > 40), line).toBe(true);
    }
  });

  it('keeps a summary to the top three actions', () => {
    const text = renderText(sampleReportDocument({ kind: 'summary' }));
    expect(text).toContain('What to fix first');
    expect(text).toContain('3. Move DMARC from p=none to p=quarantine');
    expect(text).not.toContain('4. ');
    expect(text).not.toContain('Checks\n');
  });

  it('survives the edges', () => {
    const text = renderText(edgeReportDocument());
    expect(text).toContain('Reputation score: No score yet');
    expect(text).toContain('Nothing to fix: every check passes.');
    expect(text.split('\n').every((l) => l.length <= TEXT_WIDTH || /\S{40,}/.test(l))).toBe(true);
  });
});
