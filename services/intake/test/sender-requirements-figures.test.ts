import { describe, expect, it } from 'vitest';
import type { SourceRow } from '../src/mail-flow/mail-flow.repository.js';
import { mailFlowFigures } from '../src/sender-requirements/mail-flow-figures.js';

const WINDOW = { from: '2026-02-09', to: '2026-03-10' };

function row(ip: string, messages: number, overrides: Partial<SourceRow> = {}): SourceRow {
  return {
    ip,
    host: null,
    serviceId: null,
    dkimSelectors: [],
    messages,
    spfAligned: messages,
    dkimAligned: messages,
    pass: messages,
    forwardOverride: 0,
    spfPassUnaligned: 0,
    dkimPassUnaligned: 0,
    spfPass: messages,
    dkimPass: messages,
    lookedUp: true,
    ...overrides,
  };
}

const failing = { spfAligned: 0, dkimAligned: 0, pass: 0, spfPass: 0, dkimPass: 0 };

describe('mailFlowFigures', () => {
  it('counts only authorised senders: a spoofer and a forwarder are someone else’s mail', () => {
    const figures = mailFlowFigures(
      [
        row('192.0.2.10', 400, { host: 'mail1.esp.example' }),
        row('192.0.2.11', 15, { dkimAligned: 12, dkimPass: 12, spfPass: 14 }),
        row('203.0.113.5', 40, failing),
        row('198.51.100.7', 20, { ...failing, forwardOverride: 20 }),
      ],
      WINDOW,
    );
    expect(figures).toEqual({
      from: '2026-02-09',
      to: '2026-03-10',
      messages: 415,
      spfPass: 414,
      dkimPass: 412,
      dmarcPass: 415,
      addressesLookedUp: 2,
      addressesConfirmed: 1,
      unconfirmed: ['192.0.2.11'],
      addressesPending: 0,
    });
  });

  it('keeps an authorised service failing DMARC (it would lose mail), with its failures', () => {
    // A catalogue service is authorised whatever its results: the owner signed up with it.
    const figures = mailFlowFigures([row('192.0.2.20', 100, { ...failing, serviceId: 'mailchimp', host: 'mail.mcsv.net', spfPass: 100, spfPassUnaligned: 100 })], WINDOW);
    expect(figures).toMatchObject({ messages: 100, spfPass: 100, dkimPass: 0, dmarcPass: 0 });
  });

  it('lists the busiest addresses without a confirmed name first, a few, and counts those not looked up yet', () => {
    const rows = Array.from({ length: 8 }, (_, i) => row(`192.0.2.${i + 1}`, 10 + i));
    rows.push(row('192.0.2.100', 5, { lookedUp: false }));
    const figures = mailFlowFigures(rows, WINDOW);
    expect(figures).toMatchObject({ addressesLookedUp: 8, addressesConfirmed: 0, addressesPending: 1 });
    expect(figures?.unconfirmed).toEqual(['192.0.2.8', '192.0.2.7', '192.0.2.6', '192.0.2.5', '192.0.2.4']);
  });

  it('is null when no authorised sender sent in the window', () => {
    expect(mailFlowFigures([], WINDOW)).toBeNull();
    expect(mailFlowFigures([row('203.0.113.5', 40, failing)], WINDOW)).toBeNull();
  });
});
