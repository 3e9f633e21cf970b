import { generateKeyPairSync } from 'node:crypto';
import { checkDetailsByType, findingSchema } from '@sendwell/contracts';
import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dkimCheck } from '../../src/checks/dkim/dkim.check.js';
import { COMMON_DKIM_SELECTORS } from '../../src/checks/dkim/selectors.js';
import type { CheckContext, CheckResult } from '../../src/checks/types.js';
import { checkContext } from './harness.js';

function rsaKey(bits: number): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
}

function ed25519Key(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32).toString('base64');
}

let server: TestDnsServer;

function context(domain: string, dkimSelectors: string[] = []): CheckContext {
  return checkContext(domain, server, { dnsTimeoutMs: 300, dkimSelectors });
}

async function scan(domain: string, dkimSelectors: string[] = []): Promise<CheckResult> {
  const result = await dkimCheck(context(domain, dkimSelectors));
  // Every result must be storable as the contracts describe it.
  checkDetailsByType.dkim.parse(result.details);
  for (const finding of result.details.findings) findingSchema.parse(finding);
  expect(result.type).toBe('dkim');
  return result;
}

const codes = (result: CheckResult) => result.details.findings.map((finding) => finding.code);
const records = (result: CheckResult) =>
  result.details.records as Array<{ selector: string; keyType: string; keyBits: number | null; testing: boolean; revoked: boolean }>;

beforeAll(async () => {
  const rsa2048 = rsaKey(2048);
  server = await startDnsServer({
    records: {
      'google._domainkey.rsa2048.test': { TXT: [`v=DKIM1; k=rsa; p=${rsa2048}`] },
      'selector1._domainkey.rsa1024.test': { TXT: [`v=DKIM1; k=rsa; p=${rsaKey(1024)}`] },
      // ~750 characters: the fixture server splits it into 255-byte character-strings.
      'k1._domainkey.rsa4096.test': { TXT: [`v=DKIM1; k=rsa; p=${rsaKey(4096)}`] },
      'default._domainkey.rsa512.test': { TXT: [`v=DKIM1; k=rsa; p=${rsaKey(512)}`] },
      's1._domainkey.ed.test': { TXT: [`v=DKIM1; k=ed25519; p=${ed25519Key()}`] },
      's1._domainkey.dual.test': { TXT: [`v=DKIM1; k=ed25519; p=${ed25519Key()}`] },
      's2._domainkey.dual.test': { TXT: [`v=DKIM1; k=rsa; p=${rsa2048}`] },
      'mail._domainkey.testing.test': { TXT: [`v=DKIM1; t=y; p=${rsa2048}`] },
      'dkim._domainkey.revoked.test': { TXT: ['v=DKIM1; k=rsa; p='] },
      'dkim._domainkey.rotated.test': { TXT: ['v=DKIM1; k=rsa; p='] },
      'google._domainkey.rotated.test': { TXT: [`v=DKIM1; p=${rsa2048}`] },
      'smtp._domainkey.garbage.test': { TXT: ['v=DKIM1; k=rsa; p=this-is-not-a-key'] },
      'custom2024._domainkey.user.test': { TXT: [`v=DKIM1; k=rsa; p=${rsa2048}`] },
      'selector1._domainkey.cname.test': { CNAME: 'selector1-cname-test._domainkey.esp.test' },
      'selector1-cname-test._domainkey.esp.test': { TXT: [`v=DKIM1; k=rsa; p=${rsa2048}`] },
      '*._domainkey.wildcard.test': { TXT: ['v=spf1 -all'] },
      'k2._domainkey.multi.test': { TXT: [`v=DKIM1; p=${rsa2048}`, `v=DKIM1; p=${rsaKey(1024)}`] },
      'google._domainkey.partial.test': { TXT: [`v=DKIM1; p=${rsa2048}`] },
      'none.test': { A: ['192.0.2.1'] },
      'timeout.test': { A: ['192.0.2.2'] },
    },
    behaviours: {
      'timeout.test': 'timeout',
      'selector1._domainkey.partial.test': 'timeout',
    },
  });
}, 60_000);

afterAll(async () => {
  await server.close();
});

describe('dkim check', () => {
  it('finds a 2048-bit RSA key at a common selector: valid', async () => {
    const result = await scan('rsa2048.test');
    expect(result.status).toBe('valid');
    expect(result.message).toContain('google');
    expect(result.recommendation).toBeNull();
    expect(result.value).toBe('google: rsa 2048');
    expect(records(result)).toEqual([
      expect.objectContaining({ selector: 'google', keyType: 'rsa', keyBits: 2048, testing: false, revoked: false }),
    ]);
    expect(result.details.findings).toEqual([]);
  });

  it('asks one TXT question per selector, plus one for the _domainkey node, and nothing else', async () => {
    server.resetLog();
    const result = await scan('rsa2048.test', ['mine']);
    const asked = server.queryLog.map((entry) => `${entry.type} ${entry.name.toLowerCase()}`);
    expect(new Set(asked).size).toBe(COMMON_DKIM_SELECTORS.length + 2);
    expect(asked).toContain('TXT _domainkey.rsa2048.test');
    expect(asked.every((question) => /^TXT (?:[a-z0-9_.-]+\.)?_domainkey\.rsa2048\.test$/.test(question))).toBe(true);
    expect(result.details.selectorsChecked).toEqual(['mine', ...COMMON_DKIM_SELECTORS]);
  });

  it('asks only the saved selectors when _domainkey does not exist (RFC 8020 NXDOMAIN cut)', async () => {
    server.resetLog();
    const result = await scan('none.test', ['mykey']);
    const asked = server.queryLog.map((entry) => `${entry.type} ${entry.name.toLowerCase()}`).sort();
    expect(asked).toEqual(['TXT _domainkey.none.test', 'TXT mykey._domainkey.none.test']);
    // The NXDOMAIN answered for every common selector, so they still count as checked.
    expect(result.details.selectorsChecked).toEqual(['mykey', ...COMMON_DKIM_SELECTORS]);
    expect(result.status).toBe('missing');
  });

  it('warns about a 1024-bit key (DKIM_KEY_WEAK)', async () => {
    const result = await scan('rsa1024.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['DKIM_KEY_WEAK']);
    expect(records(result)[0]).toMatchObject({ selector: 'selector1', keyBits: 1024 });
    expect(result.recommendation).toContain('2048');
  });

  it('reads a 4096-bit key published as several 255-byte strings', async () => {
    const result = await scan('rsa4096.test');
    expect(result.status).toBe('valid');
    expect(records(result)[0]).toMatchObject({ selector: 'k1', keyBits: 4096 });
    expect((result.details.records as Array<{ record: string }>)[0]?.record.length).toBeGreaterThan(700);
  });

  it('rejects a 512-bit key (DKIM_KEY_TOO_SHORT): error', async () => {
    const result = await scan('rsa512.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['DKIM_KEY_TOO_SHORT']);
    expect(result.details.findings[0]).toMatchObject({ severity: 'error', rfc: 'RFC 8301 §3.2', selector: 'default' });
    expect(records(result)[0]).toMatchObject({ keyBits: 512 });
  });

  it('reads Ed25519 keys, and warns when no RSA key backs them up', async () => {
    const edOnly = await scan('ed.test');
    expect(edOnly.status).toBe('warning');
    expect(records(edOnly)[0]).toMatchObject({ selector: 's1', keyType: 'ed25519', keyBits: 256 });
    expect(codes(edOnly)).toEqual(['DKIM_ED25519_ONLY']);

    const dual = await scan('dual.test');
    expect(dual.status).toBe('valid');
    expect(records(dual).map((record) => `${record.selector} ${record.keyType}`)).toEqual(['s1 ed25519', 's2 rsa']);
  });

  it('warns about testing mode (t=y)', async () => {
    const result = await scan('testing.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['DKIM_TESTING_MODE']);
    expect(records(result)[0]).toMatchObject({ selector: 'mail', testing: true });
  });

  it('treats a lone revoked key as no active key, and a revoked key beside a good one as info', async () => {
    const revoked = await scan('revoked.test');
    expect(revoked.status).toBe('warning');
    expect(codes(revoked)).toEqual(['DKIM_KEY_REVOKED', 'DKIM_NO_ACTIVE_KEY']);
    expect(records(revoked)[0]).toMatchObject({ selector: 'dkim', revoked: true, keyBits: null });

    const rotated = await scan('rotated.test');
    expect(rotated.status).toBe('valid');
    expect(codes(rotated)).toEqual(['DKIM_KEY_REVOKED']);
    expect(rotated.value).toBe('google: rsa 2048; dkim: revoked');
  });

  it('rejects a garbage p= value: error', async () => {
    const result = await scan('garbage.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['DKIM_KEY_INVALID_BASE64']);
    expect(result.message).toContain('smtp');
    expect(result.recommendation).toMatch(/public key/);
  });

  it("finds a key at the user's own selector beyond the common list", async () => {
    const without = await scan('user.test');
    expect(without.status).toBe('missing');

    const withSelector = await scan('user.test', ['Custom2024._domainkey']);
    expect(withSelector.status).toBe('valid');
    expect(withSelector.details.records).toEqual([
      expect.objectContaining({ selector: 'custom2024', source: 'user', keyBits: 2048 }),
    ]);
  });

  it('warns about a saved selector with no record and an invalid one', async () => {
    const result = await scan('rsa2048.test', ['gone', 'bad selector!']);
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['DKIM_SELECTOR_INVALID', 'DKIM_SELECTOR_NOT_FOUND']);
    expect(result.details.selectorsChecked).not.toContain('bad selector!');
  });

  it('follows a CNAME to the ESP through the recursive server', async () => {
    const result = await scan('cname.test');
    expect(result.status).toBe('valid');
    expect(records(result)[0]).toMatchObject({ selector: 'selector1', keyBits: 2048 });
  });

  it('ignores TXT records that are not DKIM keys (a wildcard SPF record)', async () => {
    const result = await scan('wildcard.test');
    expect(result.status).toBe('missing');
    expect(result.details.records).toEqual([]);
  });

  it('warns when a selector has several key records', async () => {
    const result = await scan('multi.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['DKIM_MULTIPLE_RECORDS', 'DKIM_KEY_WEAK']);
    expect(records(result).map((record) => record.keyBits)).toEqual([2048, 1024]);
  });

  it('reports missing with the selectors probed and how to add one', async () => {
    const result = await scan('none.test', ['mykey']);
    expect(result.status).toBe('missing');
    expect(result.value).toBeNull();
    expect(result.message).toContain('mykey');
    expect(result.message).toContain(`${COMMON_DKIM_SELECTORS.length} common selectors`);
    expect(result.message).toMatch(/add your selector/);
    expect(codes(result)).toEqual(['DKIM_SELECTOR_NOT_FOUND', 'DKIM_MISSING']);
    const missing = result.details.findings.find((finding) => finding.code === 'DKIM_MISSING');
    expect(missing?.message).toContain('selector1');
    expect(missing?.message).toContain('mykey');
    expect(result.recommendation).toMatch(/DKIM selectors/);
  });

  it('is unknown when every lookup times out', async () => {
    const result = await scan('timeout.test');
    expect(result.status).toBe('unknown');
    expect(result.details.selectorsFailed).toHaveLength(COMMON_DKIM_SELECTORS.length);
    expect(result.message).toMatch(/DNS/);
  });

  it('still judges the keys it found when some lookups time out', async () => {
    const result = await scan('partial.test');
    expect(result.status).toBe('valid');
    expect(codes(result)).toEqual(['DKIM_LOOKUP_FAILED']);
    expect(result.details.selectorsFailed).toEqual(['selector1']);
  });
});
