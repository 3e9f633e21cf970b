import type { MailSender } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { fillDays, groupSenders, needsFix, percent, reportContentType, uploadOutcome, windowRange } from './mail-flow-display';

const sender = (id: string, category: MailSender['category'], fixes: MailSender['fixes'] = []): MailSender => ({
  id,
  name: id,
  serviceId: null,
  category,
  addresses: [],
  addressCount: 0,
  messages: 1,
  spfAligned: null,
  dkimAligned: null,
  dmarcPass: null,
  dkimSelectors: [],
  fixes,
});

describe('mail flow display', () => {
  it('takes the last N UTC days, today included', () => {
    expect(windowRange(7, new Date('2026-03-05T23:30:00Z'))).toEqual({ from: '2026-02-27', to: '2026-03-05' });
    expect(windowRange(1, new Date('2026-03-05T00:00:00Z'))).toEqual({ from: '2026-03-05', to: '2026-03-05' });
  });

  it('fills days without reports with zeros so bars keep their place', () => {
    const days = fillDays([{ day: '2026-03-02', pass: 5, fail: 1 }], '2026-03-01', '2026-03-03', (day) => ({ day, pass: 0, fail: 0 }));
    expect(days).toEqual([
      { day: '2026-03-01', pass: 0, fail: 0 },
      { day: '2026-03-02', pass: 5, fail: 1 },
      { day: '2026-03-03', pass: 0, fail: 0 },
    ]);
  });

  it('shows shares as percentages, a dash where nothing was counted', () => {
    expect(percent(null)).toBe('—');
    expect(percent(1)).toBe('100%');
    expect(percent(0.9951)).toBe('99.5%');
    expect(percent(0)).toBe('0%');
  });

  it('sends the browser type when the intake takes it, else one from the extension, else octet-stream', () => {
    expect(reportContentType({ name: 'r.xml', type: 'text/xml' })).toBe('text/xml');
    expect(reportContentType({ name: 'google.com!x.xml.gz', type: 'application/x-gzip' })).toBe('application/gzip');
    expect(reportContentType({ name: 'r.zip', type: 'application/x-zip-compressed' })).toBe('application/zip');
    expect(reportContentType({ name: 'tls.json.gz', type: '' })).toBe('application/tlsrpt+gzip');
    expect(reportContentType({ name: 'Report.EML', type: '' })).toBe('message/rfc822');
    expect(reportContentType({ name: 'report', type: '' })).toBe('application/octet-stream');
  });

  it('words an upload outcome, stored and duplicates apart', () => {
    const out = uploadOutcome({ accepted: [{ kind: 'aggregate', reporter: 'google.com', reportId: '42', records: 3 }], duplicates: [{ kind: 'tls', reporter: 'microsoft.com', reportId: '7' }] });
    expect(out.stored).toEqual(['DMARC report 42 from google.com: 3 records stored.']);
    expect(out.duplicates).toEqual(['TLS report 7 from microsoft.com was already received.']);
  });

  it('lists forwarded mail apart and flags only authorised senders with fixes', () => {
    const fix = { kind: 'dkim' as const, text: 'Sign with d=example.com', record: null };
    const senders = [sender('a', 'authorised', [fix]), sender('f', 'forwarded', [fix]), sender('u', 'unknown', [fix]), sender('ok', 'authorised')];
    const { own, forwarded } = groupSenders(senders);
    expect(own.map((s) => s.id)).toEqual(['a', 'u', 'ok']);
    expect(forwarded.map((s) => s.id)).toEqual(['f']);
    expect(senders.filter(needsFix).map((s) => s.id)).toEqual(['a']);
  });
});
