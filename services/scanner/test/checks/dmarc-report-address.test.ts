import { DEV_INTAKE_DOMAIN, checkDetailsByType, reportAddressOf, reportAuthorizationRecord } from '@sendwell/contracts';
import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmarcCheck } from '../../src/checks/dmarc/dmarc.check.js';
import type { CheckResult } from '../../src/checks/types.js';
import { checkContext } from './harness.js';

/**
 * The domain's own report address at the intake: what the recommendations suggest, and an rua that
 * receivers will honour once the intake domain publishes the §7.1 wildcard authorisation.
 */

const TOKEN = '0123456789abcdef01234567';
/** An intake domain whose operator did not publish the wildcard. */
const UNAUTHORISED_INTAKE = 'reports.unpublished.test';
const wildcard = reportAuthorizationRecord(DEV_INTAKE_DOMAIN);

let server: TestDnsServer;

async function scan(domain: string, intakeDomain = DEV_INTAKE_DOMAIN, reportToken: string | null = TOKEN): Promise<CheckResult> {
  const ctx = checkContext(domain, server, { dnsTimeoutMs: 300, config: { intakeDomain } });
  const result = await dmarcCheck(reportToken ? { ...ctx, reportToken } : ctx);
  checkDetailsByType.dmarc.parse(result.details);
  return result;
}

const codes = (result: CheckResult) => result.details.findings.map((finding) => finding.code);

beforeAll(async () => {
  server = await startDnsServer({
    records: {
      // As the intake's operator publishes it: one wildcard authorises reports for every domain.
      [wildcard.host]: { TXT: [wildcard.value] },
      [DEV_INTAKE_DOMAIN]: { MX: [{ priority: 10, exchange: `mx.${DEV_INTAKE_DOMAIN}` }] },
      [UNAUTHORISED_INTAKE]: { MX: [{ priority: 10, exchange: `mx.${UNAUTHORISED_INTAKE}` }] },
      '_dmarc.ours.test': { TXT: [`v=DMARC1; p=reject; rua=mailto:${reportAddressOf(TOKEN, DEV_INTAKE_DOMAIN)}`] },
      '_dmarc.sub.ours.test': { TXT: [`v=DMARC1; p=reject; rua=mailto:${reportAddressOf(TOKEN, DEV_INTAKE_DOMAIN)}; ruf=mailto:${reportAddressOf(TOKEN, DEV_INTAKE_DOMAIN)}`] },
      '_dmarc.unauthorised.test': { TXT: [`v=DMARC1; p=reject; rua=mailto:${reportAddressOf(TOKEN, UNAUTHORISED_INTAKE)}`] },
      '_dmarc.norua.test': { TXT: ['v=DMARC1; p=reject'] },
      'absent.test': { A: ['192.0.2.1'] },
    },
  });
});

afterAll(async () => {
  await server.close();
});

describe('the DMARC check and the intake report address', () => {
  it('suggests the domain’s own report address for a missing record and a record without rua', async () => {
    const address = `${TOKEN}@${DEV_INTAKE_DOMAIN}`;
    const missing = await scan('absent.test');
    expect(missing.status).toBe('missing');
    expect(missing.recommendation).toBe(
      `Publish a TXT record at _dmarc.absent.test: "v=DMARC1; p=none; rua=mailto:${address}", then move to p=quarantine and p=reject once the reports show your mail passes.`,
    );
    expect(missing.details.findings.find((f) => f.code === 'DMARC_MISSING')?.recommendation).toContain(`rua=mailto:${address}`);
    const noRua = await scan('norua.test');
    expect(noRua.details.findings.find((f) => f.code === 'DMARC_NO_RUA')?.recommendation).toBe(`Add "rua=mailto:${address}" (or your DMARC report service's address).`);
  });

  it('falls back to dmarc@ the organisational domain when the scan has no token (quick check, CLI)', async () => {
    const missing = await scan('absent.test', DEV_INTAKE_DOMAIN, null);
    expect(missing.recommendation).toContain('rua=mailto:dmarc@absent.test');
  });

  it('verifies the intake address through the wildcard *._report._dmarc.<intake> (RFC 7489 §7.1): no finding', async () => {
    server.resetLog();
    const result = await scan('ours.test');
    expect(result.status).toBe('valid');
    expect(codes(result)).not.toContain('DMARC_EXTERNAL_DEST_UNVERIFIED');
    expect(codes(result)).not.toContain('DMARC_EXTERNAL_DEST_UNKNOWN');
    expect(result.details.rua).toEqual([
      expect.objectContaining({ domain: DEV_INTAKE_DOMAIN, external: true, verified: true, verificationName: `ours.test._report._dmarc.${DEV_INTAKE_DOMAIN}` }),
    ]);
    // Answered by the wildcard: the exact name was asked, nothing was published at it.
    expect(server.queryLog.map((q) => q.name)).toContain(`ours.test._report._dmarc.${DEV_INTAKE_DOMAIN}`);
    const both = await scan('sub.ours.test');
    expect(codes(both)).not.toContain('DMARC_EXTERNAL_DEST_UNVERIFIED');
    expect([both.details.rua, both.details.ruf].flat()).toEqual([expect.objectContaining({ verified: true }), expect.objectContaining({ verified: true })]);
  });

  it('finds the destination unverified when the intake domain publishes no wildcard', async () => {
    const result = await scan('unauthorised.test', UNAUTHORISED_INTAKE);
    expect(result.status).toBe('warning');
    const finding = result.details.findings.find((f) => f.code === 'DMARC_EXTERNAL_DEST_UNVERIFIED');
    expect(finding).toMatchObject({ destination: UNAUTHORISED_INTAKE, tag: 'rua', rfc: 'RFC 7489 §7.1' });
    expect(finding?.message).toContain(`unauthorised.test._report._dmarc.${UNAUTHORISED_INTAKE}`);
  });
});
