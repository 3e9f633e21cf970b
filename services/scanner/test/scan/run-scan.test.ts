import { checkDetailsByType, checkTypes, dnsSnapshotSchema } from '@sendwell/contracts';
import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check, ScanConfig } from '../../src/checks/types.js';
import { createResolver } from '../../src/dns/resolver.js';
import { checksRegistry } from '../../src/scan/checks-registry.js';
import { takeDnsSnapshot } from '../../src/scan/dns-snapshot.js';
import { runScan } from '../../src/scan/run-scan.js';

/** runScan and the DNS snapshot against a real fixture DNS server, with the real check modules. */

let dns: TestDnsServer;
let config: ScanConfig;

beforeAll(async () => {
  dns = await startDnsServer({
    records: {
      'snap.test': {
        A: ['192.0.2.2', '192.0.2.1'],
        AAAA: ['2001:db8::1'],
        MX: [
          { priority: 20, exchange: 'mx2.snap.test' },
          { priority: 10, exchange: 'MX1.snap.test.' },
        ],
        NS: ['ns2.snap.test', 'ns1.snap.test'],
        TXT: ['google-site-verification=abc', 'v=spf1 mx -all'],
      },
      'mx1.snap.test': { A: ['192.0.2.25'], AAAA: ['2001:db8::25'] },
      // mx2 has no address: the snapshot keeps it with an empty list.
      '_dmarc.snap.test': { TXT: ['v=DMARC1; p=quarantine'] },
      'nullmx.test': { MX: [{ priority: 0, exchange: '.' }], TXT: ['v=spf1 -all'] },
      'slow.test': { A: ['192.0.2.9'] },
      'parked.test': { TXT: ['v=spf1 ~all'], NS: ['ns1.parked.test'] },
      '_dmarc.parked.test': { TXT: ['v=DMARC1; p=none'] },
    },
    behaviours: { 'slow.test': 'timeout' },
  });
  config = { dnsblIpZones: ['bl.fixture.test'], dnsblDomainZones: ['dbl.fixture.test'], tlsPort: 1, httpsPort: 1, smtpPort: 1, heloName: 'scanner.sendwell.test', authoritativeDnsPort: dns.port, timeoutMs: 300, outbound: { allowLoopback: true } };
});

afterAll(async () => {
  await dns.close();
});

const resolver = (timeoutMs = 300) => createResolver({ servers: [{ host: dns.host, port: dns.port }], timeoutMs });

describe('takeDnsSnapshot', () => {
  it('reads A, AAAA, MX with each exchange’s addresses, NS, TXT, SPF and DMARC, sorted', async () => {
    const snapshot = await takeDnsSnapshot('snap.test', resolver());
    expect(snapshot).toMatchObject({
      a: ['192.0.2.1', '192.0.2.2'],
      aaaa: ['2001:db8::1'],
      mx: [
        { exchange: 'mx1.snap.test', priority: 10, ips: ['192.0.2.25', '2001:db8::25'] },
        { exchange: 'mx2.snap.test', priority: 20, ips: [] },
      ],
      ns: ['ns1.snap.test', 'ns2.snap.test'],
      txt: ['google-site-verification=abc', 'v=spf1 mx -all'],
      spfRecord: 'v=spf1 mx -all',
      dmarcRecord: 'v=DMARC1; p=quarantine',
      failed: [],
    });
    // What domains reads it back with: the contracts' schema, which must take the scanner's snapshot whole.
    expect(dnsSnapshotSchema.parse(JSON.parse(JSON.stringify(snapshot)))).toEqual(snapshot);
  });

  it('keeps a null MX out of the exchanges, and names the record sets it could not read', async () => {
    expect((await takeDnsSnapshot('nullmx.test', resolver())).mx).toEqual([]);
    const slow = await takeDnsSnapshot('slow.test', resolver(100));
    expect(slow.failed).toEqual(['a', 'aaaa', 'bimiRecord', 'dmarcRecord', 'mtaStsRecord', 'mx', 'ns', 'spfRecord', 'tlsRptRecord', 'txt']);
  });
});

describe('runScan', () => {
  it('records a check that throws as unknown with CHECK_FAILED, and one that hangs as CHECK_TIMED_OUT, without failing the scan', async () => {
    const throwingCheck: Check = async () => {
      throw new Error('module bug');
    };
    const hangingCheck: Check = () => new Promise(() => undefined);
    const outcome = await runScan('snap.test', {
      resolver: resolver(),
      config,
      checks: { ...checksRegistry, dkim: throwingCheck, ssl_certificate: hangingCheck },
      dkimSelectors: [],
      checkDeadlineMs: 1_500,
    });
    expect(outcome.checks.dkim).toMatchObject({ type: 'dkim', status: 'unknown', details: { findings: [{ code: 'CHECK_FAILED' }] } });
    expect(outcome.checks.dkim.details.findings[0]?.message).toContain('module bug');
    expect(outcome.checks.ssl_certificate).toMatchObject({ status: 'unknown', details: { findings: [{ code: 'CHECK_TIMED_OUT' }] } });
    // The real modules ran beside them.
    expect(outcome.checks.spf.status).toBe('valid');
    expect(outcome.checks.dmarc.details).toMatchObject({ policy: 'quarantine' });
    expect(outcome.status).toBe('warning');
    expect(outcome.snapshot.spfRecord).toBe('v=spf1 mx -all');
    expect(outcome.score.score).toBeGreaterThan(0);
    expect(Object.keys(outcome.checks).sort()).toEqual([...checkTypes].sort());
    // Each stored row's details read back whole with the contracts' schema of its type (as domains reads them).
    for (const type of checkTypes) {
      const stored = JSON.parse(JSON.stringify(outcome.checks[type].details));
      expect(checkDetailsByType[type].parse(stored), type).toEqual(stored);
    }
  });

  it('records a socket error a check throws by its code, without the text naming our own address', async () => {
    const socketError: Check = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.2:53'), { code: 'ECONNREFUSED' });
    };
    const outcome = await runScan('snap.test', { resolver: resolver(), config, checks: { ...checksRegistry, blacklist: socketError }, dkimSelectors: [], checkDeadlineMs: 1_500 });
    expect(outcome.checks.blacklist.details.findings).toEqual([
      { code: 'CHECK_FAILED', severity: 'warning', message: 'The check could not be completed: Error: connection refused' },
    ]);
  });
});

describe('runScan by the domain\'s profile', () => {
  const mailChecks = ['dkim', 'mta_sts', 'tls_rpt', 'smtp', 'reverse_dns'] as const;

  it('judges a null-MX domain as one that takes no mail: no mail checks, full mail-routing points', async () => {
    const outcome = await runScan('nullmx.test', { resolver: resolver(), config, checks: checksRegistry, dkimSelectors: [] });
    expect(outcome.profile).toBe('null_mx');
    expect(outcome.snapshot.profile).toBe('null_mx');
    for (const type of mailChecks) {
      expect(outcome.checks[type], type).toMatchObject({ status: 'success', value: 'Not applicable', details: { findings: [{ code: 'NOT_APPLICABLE_NO_MAIL', rfc: 'RFC 7505 §3' }] } });
    }
    expect(outcome.checks.spf.status).toBe('valid');
    expect(outcome.score.factors.configurationHealth).toMatchObject({ mailRouting: 6 });
  });

  it('judges a parked domain (no MX, an SPF that authorises nobody) and asks for -all and p=reject', async () => {
    const outcome = await runScan('parked.test', { resolver: resolver(), config, checks: checksRegistry, dkimSelectors: [] });
    expect(outcome.profile).toBe('parked');
    expect(outcome.checks.smtp.message).toBe('Not needed: parked.test has no MX and an SPF record that authorises no sender: it sends and receives no mail.');
    expect(outcome.checks.spf.details.findings.map((f) => f.code)).toContain('NO_MAIL_SPF_NOT_HARDFAIL');
    expect(outcome.checks.dmarc).toMatchObject({ status: 'warning' });
    expect(outcome.checks.dmarc.details.findings.map((f) => f.code)).toContain('NO_MAIL_DMARC_NOT_REJECT');
  });

  it('runs only the six core checks when asked (the public quick check), the others reading as not run', async () => {
    const outcome = await runScan('snap.test', { resolver: resolver(), config, checks: checksRegistry, dkimSelectors: [], coreOnly: true });
    expect(outcome.profile).toBe('mail');
    for (const type of ['mta_sts', 'tls_rpt', 'smtp', 'reverse_dns'] as const) {
      expect(outcome.checks[type], type).toMatchObject({ status: 'unknown', details: { findings: [{ code: 'CHECK_NOT_RUN' }] } });
    }
    expect(outcome.checks.spf.status).toBe('valid');
  });
});
