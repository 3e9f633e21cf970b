import { mailTestAnalysisSchema, mailTestFindingSchema } from '@sendwell/contracts';
import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsblZone } from '../../src/checks/blacklist/zones.js';
import { readConnection } from '../../src/mail-test/connection.js';
import { fixtureAnalysisDeps, fixtureIpList, fixtureSession } from './fixtures/analysis-deps.js';

/**
 * The connection part of a mail test against the fixture DNS server: PTR and A records of the
 * sending addresses, and two fixture IP lists (one lists 192.0.2.30, one is degraded).
 */

let dns: TestDnsServer;
const lists = [fixtureIpList('listed.bl.test'), fixtureIpList('other.bl.test'), fixtureIpList('broken.bl.test')];

beforeAll(async () => {
  dns = await startDnsServer({
    records: {
      // Confirmed: PTR mail.sender.test, whose A record is the address.
      '10.2.0.192.in-addr.arpa': { PTR: ['mail.sender.test'] },
      'mail.sender.test': { A: ['192.0.2.10'] },
      // The PTR name resolves elsewhere.
      '11.2.0.192.in-addr.arpa': { PTR: ['forged.sender.test'] },
      'forged.sender.test': { A: ['198.51.100.99'] },
      // 192.0.2.20 has no PTR at all.
      // 192.0.2.30 is confirmed, and listed on listed.bl.test with a reason.
      '30.2.0.192.in-addr.arpa': { PTR: ['mx.spammy.test'] },
      'mx.spammy.test': { A: ['192.0.2.30'] },
      '30.2.0.192.listed.bl.test': { A: ['127.0.0.2'], TXT: ['Listed for trap hits, see https://bl.test/30'] },
      '2.0.0.127.other.bl.test': { A: ['127.0.0.2'] },
      // The degraded list would list everyone; it must not be asked.
      '*.broken.bl.test': { A: ['127.0.0.2'] },
      // A list reached with a key in its query zone.
      '30.2.0.192.sekritkey.keyed.bl.test': { A: ['127.0.0.2'] },
    },
  });
});

afterAll(async () => {
  await dns.close();
});

function deps() {
  return fixtureAnalysisDeps(dns, { zones: lists, degraded: { 'broken.bl.test': 'answers 127.0.0.2 for everything' } });
}

const codes = (findings: Array<{ code: string }>) => findings.map((finding) => finding.code).sort();

async function read(overrides: Parameters<typeof fixtureSession>[0]) {
  const part = await readConnection(fixtureSession(overrides), deps());
  // Storable: the value fits the contract's connection part, and every finding the finding schema.
  expect(() => mailTestAnalysisSchema.shape.connection.parse(part.value)).not.toThrow();
  for (const finding of part.findings) expect(() => mailTestFindingSchema.parse(finding)).not.toThrow();
  return part;
}

describe('readConnection', () => {
  it('finds nothing wrong with a confirmed, unlisted client over TLS 1.3 that greets with its own name', async () => {
    const part = await read({ clientAddress: '192.0.2.10', helo: 'mail.sender.test' });
    expect(part.findings).toEqual([]);
    expect(part.value).toEqual({
      clientAddress: '192.0.2.10',
      reverseDns: { names: ['mail.sender.test'], forwardConfirmed: true, confirmedName: 'mail.sender.test' },
      helo: 'mail.sender.test',
      tls: { used: true, protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384' },
      blocklists: [
        { list: 'listed.bl.test', listed: false, answer: null },
        { list: 'other.bl.test', listed: false, answer: null },
      ],
    });
  });

  it('reports an address without a PTR record as an error', async () => {
    const part = await read({ clientAddress: '192.0.2.20', helo: 'mail.sender.test' });
    expect(part.value.reverseDns).toEqual({ names: [], forwardConfirmed: false, confirmedName: null });
    expect(codes(part.findings)).toEqual(['HELO_DOES_NOT_RESOLVE_TO_CLIENT', 'PTR_MISSING']);
    const missing = part.findings.find((finding) => finding.code === 'PTR_MISSING');
    expect(missing).toMatchObject({ group: 'connection', severity: 'error', points: 1.5 });
    expect(missing?.fix).toContain('192.0.2.20');
  });

  it('reports a PTR name that does not resolve back to the address', async () => {
    const part = await read({ clientAddress: '192.0.2.11', helo: 'forged.sender.test' });
    expect(part.value.reverseDns).toEqual({ names: ['forged.sender.test'], forwardConfirmed: false, confirmedName: null });
    expect(codes(part.findings)).toEqual(['HELO_DOES_NOT_RESOLVE_TO_CLIENT', 'PTR_NOT_FORWARD_CONFIRMED']);
    expect(part.findings.find((finding) => finding.code === 'HELO_DOES_NOT_RESOLVE_TO_CLIENT')).toMatchObject({ severity: 'info', points: 0 });
  });

  it('reports a listed address once per list, with the list’s reason, and skips degraded lists', async () => {
    dns.resetLog();
    const part = await read({ clientAddress: '192.0.2.30', helo: 'mx.spammy.test' });
    expect(part.value.blocklists).toEqual([
      { list: 'listed.bl.test', listed: true, answer: '127.0.0.2' },
      { list: 'other.bl.test', listed: false, answer: null },
    ]);
    expect(codes(part.findings)).toEqual(['IP_BLOCKLISTED']);
    const listed = part.findings[0];
    expect(listed).toMatchObject({ severity: 'error', points: 1, title: '192.0.2.30 is listed on listed.bl.test' });
    expect(listed?.explanation).toContain('Listed for trap hits');
    expect(dns.queryLog.some((entry) => entry.name.endsWith('broken.bl.test'))).toBe(false);
  });

  it('reads an IPv4 client that a dual-stack listener reported as ::ffff:a.b.c.d as the IPv4 address', async () => {
    const part = await read({ clientAddress: '::ffff:192.0.2.30', helo: 'mx.spammy.test' });
    expect(part.value.clientAddress).toBe('192.0.2.30');
    expect(part.value.reverseDns.forwardConfirmed).toBe(true);
    expect(codes(part.findings)).toEqual(['IP_BLOCKLISTED']);
  });

  it('reports mail that came in without TLS as an error, and TLS 1.0 as a warning', async () => {
    const plain = await read({ clientAddress: '192.0.2.10', tls: null });
    expect(plain.value.tls).toEqual({ used: false, protocol: null, cipher: null });
    expect(plain.findings).toEqual([expect.objectContaining({ code: 'TLS_NOT_USED', severity: 'error', points: 1.5 })]);

    const old = await read({ clientAddress: '192.0.2.10', tls: { protocol: 'TLSv1', cipher: 'ECDHE-RSA-AES128-SHA' } });
    expect(old.value.tls.used).toBe(true);
    expect(old.findings).toEqual([expect.objectContaining({ code: 'TLS_OUTDATED', severity: 'warning' })]);
  });

  it('notes a HELO that is not a host name, and one that is an address literal', async () => {
    const single = await read({ clientAddress: '192.0.2.10', helo: 'localhost' });
    expect(single.findings).toEqual([expect.objectContaining({ code: 'HELO_NOT_FQDN', severity: 'warning', points: 0.5 })]);

    const literal = await read({ clientAddress: '192.0.2.10', helo: '[192.0.2.10]' });
    expect(literal.findings).toEqual([expect.objectContaining({ code: 'HELO_ADDRESS_LITERAL', severity: 'info', points: 0 })]);
  });

  it('never shows the key of a list reached with one (its query zone)', async () => {
    const keyed = dnsblZone({ zone: 'keyed.bl.test', key: 'sekritkey' }, 'ip');
    const part = await readConnection(fixtureSession({ clientAddress: '192.0.2.30', helo: 'mx.spammy.test' }), fixtureAnalysisDeps(dns, { zones: [keyed] }));
    expect(part.value.blocklists).toEqual([{ list: 'keyed.bl.test', listed: true, answer: '127.0.0.2' }]);
    expect(JSON.stringify(part)).not.toContain('sekritkey');
  });
});
