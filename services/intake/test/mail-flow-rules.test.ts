import { describe, expect, it } from 'vitest';
import type { SourceRow } from '../src/mail-flow/mail-flow.repository.js';
import { policyReadiness, withPolicy } from '../src/mail-flow/readiness.js';
import { categorise, groupSenders, senderFixes, spfWithInclude } from '../src/mail-flow/senders.js';
import { mailFlowWindow } from '../src/mail-flow/window.js';

const row = (over: Partial<SourceRow>): SourceRow => ({
  ip: '192.0.2.1',
  host: null,
  serviceId: null,
  messages: 100,
  spfAligned: 0,
  dkimAligned: 0,
  pass: 0,
  forwardOverride: 0,
  spfPassUnaligned: 0,
  dkimPassUnaligned: 0,
  lookedUp: false,
  spfPass: 0,
  dkimPass: 0,
  dkimSelectors: [],
  ...over,
});

describe('sender rules', () => {
  it('calls a named operator whose failing mail passes SPF for its own domain authorised, an anonymous one unknown', () => {
    const [named] = groupSenders([row({ host: 'o1.mail.newsletters.example.net', spfPassUnaligned: 100 })]);
    const [anonymous] = groupSenders([row({ spfPassUnaligned: 100 })]);
    expect(named?.id).toBe('host:example.net');
    expect(categorise(named!)).toBe('authorised');
    expect(categorise(anonymous!)).toBe('unknown');
  });

  it('calls a catalogue forwarder forwarded whatever its results', () => {
    const [pobox] = groupSenders([row({ serviceId: 'pobox', pass: 100, spfAligned: 100 })]);
    expect(categorise(pobox!)).toBe('forwarded');
  });

  it('tells a service using its own MAIL FROM to set a custom one, and leaves an include that is already there', () => {
    const [sendgrid] = groupSenders([row({ serviceId: 'sendgrid', dkimAligned: 100, pass: 100 }), row({ ip: '192.0.2.2', serviceId: 'sendgrid', spfPassUnaligned: 100 })]);
    const fixes = senderFixes(sendgrid!, 'authorised', 'shop.example', 'v=spf1 include:sendgrid.net ~all');
    expect(fixes.map((f) => [f.kind, f.record])).toEqual([
      ['spf', null],
      ['dkim', 's1._domainkey.shop.example CNAME s1.domainkey.<account>.wl.sendgrid.net\ns2._domainkey.shop.example CNAME s2.domainkey.<account>.wl.sendgrid.net'],
    ]);
    expect(fixes[0]?.text).toMatch(/custom MAIL FROM/);
    // Without a scanned SPF record the include is given alone.
    const [failing] = groupSenders([row({ serviceId: 'sendgrid' })]);
    expect(senderFixes(failing!, 'authorised', 'shop.example', null)[0]?.record).toBe('include:sendgrid.net');
  });

  it('adds an include before all or redirect, never twice', () => {
    expect(spfWithInclude('v=spf1 ip4:192.0.2.0/24 ~all', 'include:x.example')).toBe('v=spf1 ip4:192.0.2.0/24 include:x.example ~all');
    expect(spfWithInclude('v=spf1 redirect=_spf.example', 'include:x.example')).toBe('v=spf1 include:x.example redirect=_spf.example');
    expect(spfWithInclude('v=spf1 mx', 'include:x.example')).toBe('v=spf1 mx include:x.example');
    expect(spfWithInclude('v=spf1 include:X.example -all', 'include:x.example')).toBeNull();
  });
});

describe('readiness rules', () => {
  const base = { legitimateMessages: 1000, affectedMessages: 0, reportDays: 10, failingSenders: [], dmarcRecord: 'v=DMARC1; p=quarantine; t=y; rua=mailto:a@b.example' };

  it('has no step past reject', () => {
    const r = policyReadiness({ ...base, published: { p: 'reject', testing: false } });
    expect(r).toMatchObject({ currentPolicy: 'reject', nextPolicy: null, ready: false, record: null, blockers: ['The domain already publishes p=reject: there is no further step.'] });
  });

  it('steps from quarantine to reject, dropping t=y', () => {
    const r = policyReadiness({ ...base, published: { p: 'quarantine', testing: false } });
    expect(r).toMatchObject({ nextPolicy: 'reject', ready: true, record: 'v=DMARC1; p=reject; rua=mailto:a@b.example' });
    expect(withPolicy('v=DMARC1; rua=mailto:a@b.example', 'quarantine')).toBe('v=DMARC1; p=quarantine; rua=mailto:a@b.example');
  });
});

describe('mail-flow window', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  it('defaults to the 30 days up to today and collapses a window wholly before the retention', () => {
    expect(mailFlowWindow({}, 90, now)).toEqual({ from: '2026-02-09', to: '2026-03-10' });
    expect(mailFlowWindow({ from: '2020-01-01', to: '2020-01-31' }, 90, now)).toEqual({ from: '2025-12-10', to: '2025-12-10' });
    expect(mailFlowWindow({ from: '2027-01-01' }, 90, now)).toEqual({ from: '2026-03-10', to: '2026-03-10' });
  });
});
