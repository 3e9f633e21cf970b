import { mailTestAnalysisSchema, mailTestFindingSchema, type MailTestFinding, type MailTestSession } from '@sendwell/contracts';
import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthentication } from '../../src/mail-test/authentication.js';
import { fixtureAnalysisDeps, fixtureSession } from './fixtures/analysis-deps.js';
import { arcSealed, dkimSigned, dkimTestKey, testMessage, withFooter, type DkimTestKey } from './fixtures/signed-message.js';

/**
 * The authentication part of a mail test against the fixture DNS server: sender.test publishes
 * SPF (ip4:127.0.0.1), DMARC p=reject, BIMI and DKIM keys of 2048, 1024 and 512 bits; other.test
 * signs without being the From domain; forwarder.test seals with ARC; monitor.test has p=none;
 * bare.test publishes nothing.
 */

let dns: TestDnsServer;
let key2048: DkimTestKey;
let key1024: DkimTestKey;
let key512: DkimTestKey;
let otherKey: DkimTestKey;
let arcKey: DkimTestKey;

beforeAll(async () => {
  [key2048, key1024, key512, otherKey, arcKey] = [dkimTestKey(2048), dkimTestKey(1024), dkimTestKey(512), dkimTestKey(2048), dkimTestKey(2048)];
  dns = await startDnsServer({
    records: {
      'sender.test': { TXT: ['v=spf1 ip4:127.0.0.1 -all'] },
      'mail.sender.test': { A: ['127.0.0.1'], TXT: ['v=spf1 ip4:127.0.0.1 -all'] },
      '_dmarc.sender.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@sender.test'] },
      'default._bimi.sender.test': { TXT: ['v=BIMI1; l=https://sender.test/bimi/logo.svg; a=https://sender.test/bimi/vmc.pem'] },
      's2048._domainkey.sender.test': { TXT: [key2048.dnsRecord] },
      's1024._domainkey.sender.test': { TXT: [key1024.dnsRecord] },
      's512._domainkey.sender.test': { TXT: [key512.dnsRecord] },
      'other.test': { TXT: ['v=spf1 ip4:127.0.0.1 -all'] },
      'esp._domainkey.other.test': { TXT: [otherKey.dnsRecord] },
      'forwarder.test': { TXT: ['v=spf1 ip4:127.0.0.2 -all'] },
      'arc._domainkey.forwarder.test': { TXT: [arcKey.dnsRecord] },
      'monitor.test': { TXT: ['v=spf1 ip4:127.0.0.1 -all'] },
      '_dmarc.monitor.test': { TXT: ['v=DMARC1; p=none'] },
      'default._bimi.monitor.test': { TXT: ['v=BIMI1; l=https://monitor.test/logo.svg'] },
    },
  });
});

afterAll(async () => {
  await dns.close();
});

async function read(raw: Buffer, overrides: Partial<MailTestSession> = {}) {
  const part = await readAuthentication(raw, fixtureSession(overrides), fixtureAnalysisDeps(dns));
  // Storable: the value fits the contract's authentication part, and every finding the finding schema.
  expect(() => mailTestAnalysisSchema.shape.authentication.parse(part.value)).not.toThrow();
  for (const finding of part.findings) expect(() => mailTestFindingSchema.parse(finding)).not.toThrow();
  return part;
}

const codes = (findings: MailTestFinding[]) => findings.map((finding) => finding.code).sort();
const points = (findings: MailTestFinding[]) => findings.reduce((sum, finding) => sum + finding.points, 0);
const signed = (options: Partial<Parameters<typeof dkimSigned>[1]> = {}, message = testMessage()) => dkimSigned(message, { domain: 'sender.test', selector: 's2048', key: key2048, ...options });

describe('readAuthentication', () => {
  it('passes a message with SPF, an aligned 2048-bit signature, DMARC p=reject and a BIMI record, at no cost', async () => {
    const part = await read(await signed());
    expect(part.value.spf).toEqual({
      mailFrom: { domain: 'sender.test', result: 'pass', explanation: expect.any(String) },
      helo: { domain: 'mail.sender.test', result: 'pass', explanation: expect.any(String) },
    });
    expect(part.value.dkim).toEqual([
      {
        domain: 'sender.test',
        selector: 's2048',
        algorithm: 'rsa-sha256',
        keyBits: 2048,
        bodyLength: null,
        signedHeaders: expect.arrayContaining(['from', 'subject', 'date', 'to', 'message-id']),
        result: 'pass',
        reason: null,
        aligned: true,
      },
    ]);
    expect(part.value.dmarc).toEqual({ domain: 'sender.test', record: 'v=DMARC1; p=reject; rua=mailto:dmarc@sender.test', policy: 'reject', result: 'pass', spfAligned: true, dkimAligned: true });
    expect(part.value.arc).toEqual({ result: 'none', instances: 0, reason: null });
    expect(part.value.bimi).toEqual({ result: 'pass', location: 'https://sender.test/bimi/logo.svg', authority: 'https://sender.test/bimi/vmc.pem', reason: null });
    expect(part.findings).toEqual([]);
  });

  it('fails a signature whose body was changed after signing, and says so in plain words', async () => {
    const part = await read(withFooter(await signed()));
    expect(part.value.dkim).toEqual([expect.objectContaining({ domain: 'sender.test', result: 'fail', reason: expect.stringContaining('body was changed'), aligned: true })]);
    // SPF still carries DMARC.
    expect(part.value.dmarc).toMatchObject({ result: 'pass', spfAligned: true, dkimAligned: false });
    expect(codes(part.findings)).toEqual(['DKIM_FAIL']);
    expect(part.findings[0]).toMatchObject({ severity: 'error', points: 1.5 });
  });

  it('reports a valid signature of another domain as not aligned', async () => {
    const part = await read(await signed({ domain: 'other.test', selector: 'esp', key: otherKey }));
    expect(part.value.dkim).toEqual([expect.objectContaining({ domain: 'other.test', result: 'pass', aligned: false })]);
    expect(part.value.dmarc).toMatchObject({ result: 'pass', spfAligned: true, dkimAligned: false });
    expect(codes(part.findings)).toEqual(['DKIM_NOT_ALIGNED']);
  });

  it('validates the ARC seal of a forwarder that changed the body, while DKIM and DMARC fail', async () => {
    const forwarded = await arcSealed(withFooter(await signed()), {
      domain: 'forwarder.test',
      selector: 'arc',
      key: arcKey,
      authResults: 'mx.forwarder.test; dkim=pass header.d=sender.test; spf=pass smtp.mailfrom=sender.test; dmarc=pass header.from=sender.test',
    });
    const part = await read(forwarded, { clientAddress: '127.0.0.2', helo: 'mx.forwarder.test', mailFrom: 'list-bounces@forwarder.test' });
    expect(part.value.arc).toEqual({ result: 'pass', instances: 1, reason: expect.stringContaining('dkim=pass') });
    expect(part.value.dkim).toEqual([expect.objectContaining({ domain: 'sender.test', result: 'fail' })]);
    expect(part.value.spf.mailFrom).toMatchObject({ domain: 'forwarder.test', result: 'pass' });
    expect(part.value.dmarc).toMatchObject({ result: 'fail', spfAligned: false, dkimAligned: false });
    expect(part.value.bimi).toMatchObject({ result: 'skipped', reason: 'the message did not pass DMARC' });
    expect(codes(part.findings)).toEqual(['BIMI_NOT_ELIGIBLE', 'DKIM_FAIL', 'DMARC_FAIL']);
  });

  it('reports a broken ARC chain (the sealed message changed afterwards)', async () => {
    const sealed = await arcSealed(await signed(), { domain: 'forwarder.test', selector: 'arc', key: arcKey, authResults: 'mx.forwarder.test; spf=pass smtp.mailfrom=sender.test' });
    const part = await read(withFooter(sealed));
    expect(part.value.arc).toMatchObject({ result: 'fail', instances: 1, reason: expect.any(String) });
    expect(codes(part.findings)).toContain('ARC_FAIL');
  });

  it('warns about an l= tag, which lets anyone append to the body', async () => {
    const part = await read(await signed({ maxBodyLength: 10 }));
    expect(part.value.dkim).toEqual([expect.objectContaining({ result: 'pass', bodyLength: 10 })]);
    expect(codes(part.findings)).toEqual(['DKIM_BODY_LENGTH_LIMIT']);
  });

  it('warns about a 1024-bit key and refuses a 512-bit one', async () => {
    const borderline = await read(await signed({ selector: 's1024', key: key1024 }));
    expect(borderline.value.dkim).toEqual([expect.objectContaining({ result: 'pass', keyBits: 1024 })]);
    expect(borderline.findings).toEqual([expect.objectContaining({ code: 'DKIM_KEY_1024', severity: 'warning' })]);

    const weak = await read(await signed({ selector: 's512', key: key512 }));
    expect(weak.value.dkim).toEqual([expect.objectContaining({ result: 'policy', keyBits: 512, reason: expect.stringContaining('512 bits') })]);
    expect(weak.value.dmarc).toMatchObject({ result: 'pass', dkimAligned: false });
    expect(weak.findings).toEqual([expect.objectContaining({ code: 'DKIM_KEY_TOO_SHORT', severity: 'error', points: 1.5 })]);
  });

  it('reports a signature that does not cover From, which receivers ignore', async () => {
    // mailauth will not sign without From, so From is taken out of h= afterwards.
    const part = await read(Buffer.from((await signed()).toString().replace(/: From;/, ';')));
    expect(part.value.dkim).toEqual([expect.objectContaining({ result: 'neutral', reason: expect.stringContaining('From header'), signedHeaders: expect.not.arrayContaining(['from']) })]);
    expect(codes(part.findings)).toEqual(['DKIM_FROM_NOT_SIGNED']);
  });

  it('says a key that could not be looked up is a temporary error, not a failure', async () => {
    dns.setBehaviour('down._domainkey.sender.test', 'servfail');
    const part = await read(await signed({ selector: 'down' }));
    expect(part.value.dkim).toEqual([expect.objectContaining({ result: 'temperror', reason: expect.stringContaining('down._domainkey.sender.test could not be looked up') })]);
    expect(part.value.dmarc).toMatchObject({ result: 'pass', spfAligned: true });
  });

  it('reports a message without a DKIM signature', async () => {
    const part = await read(testMessage());
    expect(part.value.dkim).toEqual([]);
    expect(part.value.dmarc).toMatchObject({ result: 'pass', spfAligned: true, dkimAligned: false });
    expect(part.findings).toEqual([expect.objectContaining({ code: 'DKIM_MISSING', severity: 'error', points: 2 })]);
  });

  it('checks SPF of postmaster@<HELO> for an empty MAIL FROM (RFC 7208 §2.4), which aligns relaxed', async () => {
    const part = await read(await signed(), { mailFrom: '' });
    expect(part.value.spf.mailFrom).toMatchObject({ domain: 'mail.sender.test', result: 'pass' });
    expect(part.value.dmarc).toMatchObject({ result: 'pass', spfAligned: true, dkimAligned: true });
    expect(part.findings).toEqual([]);
  });

  it('loses about 6 points for a message that fails everything here', async () => {
    const part = await read(testMessage(), { clientAddress: '127.0.0.9', helo: 'mail.sender.test' });
    expect(part.value.spf.mailFrom.result).toBe('fail');
    expect(part.value.dmarc).toMatchObject({ result: 'fail', policy: 'reject' });
    expect(codes(part.findings)).toEqual(['BIMI_NOT_ELIGIBLE', 'DKIM_MISSING', 'DMARC_FAIL', 'SPF_FAIL', 'SPF_HELO_FAIL']);
    expect(points(part.findings)).toBeGreaterThanOrEqual(5.5);
    expect(points(part.findings)).toBeLessThanOrEqual(6.5);
  });

  it('notes p=none as the start of the road to reject, and BIMI as out of reach', async () => {
    const part = await read(await signed({ domain: 'monitor.test', selector: 'esp', key: otherKey }, testMessage({ from: 'news@monitor.test' })), { mailFrom: 'bounces@monitor.test' });
    // monitor.test publishes no key at esp._domainkey: the signature has no key, SPF carries DMARC.
    expect(part.value.dkim).toEqual([expect.objectContaining({ result: 'permerror', reason: 'there is no DKIM key at esp._domainkey.monitor.test' })]);
    expect(part.value.dmarc).toMatchObject({ domain: 'monitor.test', policy: 'none', result: 'pass' });
    expect(part.value.bimi).toMatchObject({ result: 'skipped', location: 'https://monitor.test/logo.svg', reason: expect.stringContaining('p=none') });
    expect(codes(part.findings)).toEqual(['BIMI_NOT_ELIGIBLE', 'DKIM_FAIL', 'DMARC_POLICY_NONE']);
    expect(part.findings.filter((finding) => finding.severity === 'info').every((finding) => finding.points === 0)).toBe(true);
  });

  it('finds the organisational domain’s DMARC record for a subdomain, and reports a domain without one', async () => {
    const sub = await read(testMessage({ from: 'news@mail.sender.test' }));
    expect(sub.value.dmarc).toMatchObject({ domain: 'mail.sender.test', record: 'v=DMARC1; p=reject; rua=mailto:dmarc@sender.test', policy: 'reject', result: 'pass' });

    const bare = await read(testMessage({ from: 'someone@bare.test' }), { mailFrom: 'someone@bare.test' });
    expect(bare.value.spf.mailFrom).toMatchObject({ domain: 'bare.test', result: 'none' });
    expect(bare.value.dmarc).toMatchObject({ domain: 'bare.test', record: null, result: 'none' });
    expect(codes(bare.findings)).toEqual(['BIMI_NOT_ELIGIBLE', 'DKIM_MISSING', 'DMARC_MISSING', 'SPF_NONE']);
  });
});
