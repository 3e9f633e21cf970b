import { mailTestAnalysisSchema } from '@sendwell/contracts';
import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { adversarialInputs, cpuMsSince, withinBudget } from '@sendwell/testing/hostile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthentication } from '../../src/mail-test/authentication.js';
import { capDkimSignatures, MAX_VERIFIED_SIGNATURES } from '../../src/mail-test/authentication/signature-cap.js';
import { fixtureAnalysisDeps, fixtureSession } from './fixtures/analysis-deps.js';
import { dkimSigned, dkimTestKey, testMessage, type DkimTestKey } from './fixtures/signed-message.js';

/**
 * What a sender controls, built to cost: hundreds of DKIM-Signature fields (each a key lookup and,
 * with its own l=, a body hash), and header values made to make parsers backtrack. The work is
 * bounded by the signature cap, and the answer is still a storable analysis.
 */

let dns: TestDnsServer;
let key: DkimTestKey;

/** CPU for a whole analysis: ten RSA verifications, a few dozen DNS answers served in this process. */
const ANALYSIS_BUDGET_MS = 1_500;

beforeAll(async () => {
  key = dkimTestKey(2048);
  dns = await startDnsServer({
    records: {
      'sender.test': { TXT: ['v=spf1 ip4:127.0.0.1 -all'] },
      '_dmarc.sender.test': { TXT: ['v=DMARC1; p=reject'] },
      's2048._domainkey.sender.test': { TXT: [key.dnsRecord] },
    },
  });
});

afterAll(async () => {
  await dns.close();
});

function signatureField(i: number): string {
  // Each with its own selector and l=: uncapped, that is a key lookup and a body hash apiece.
  return `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=sender.test; s=sel${i};\r\n\th=from:subject; l=${i}; bh=${'A'.repeat(43)}=;\r\n\tb=${'B'.repeat(340)}`;
}

async function analyse(raw: Buffer) {
  dns.resetLog();
  const started = process.cpuUsage();
  const part = await readAuthentication(raw, fixtureSession({ mailFrom: 'bounces@sender.test' }), fixtureAnalysisDeps(dns));
  const cpu = cpuMsSince(started);
  expect(() => mailTestAnalysisSchema.shape.authentication.parse(part.value)).not.toThrow();
  return { part, cpu };
}

describe('capDkimSignatures', () => {
  it('keeps the first signatures of thousands, in one linear pass', () => {
    const headers = Array.from({ length: 5_000 }, (_, i) => signatureField(i));
    const raw = Buffer.from(`${headers.join('\r\n')}\r\n${testMessage().toString()}`);
    const capped = withinBudget(() => capDkimSignatures(raw));
    expect(capped.signatures).toHaveLength(MAX_VERIFIED_SIGNATURES);
    expect(capped.dropped).toBe(5_000 - MAX_VERIFIED_SIGNATURES);
    expect(capped.signatures[0]).toContain('s=sel0;');
    // The rest of the message is untouched.
    expect(capped.message.toString().endsWith(testMessage().toString())).toBe(true);
  });

  it('reads a header section of one endless folded field, or no body at all, in budget', () => {
    const folded = Buffer.from(`Subject: x${'\r\n '.repeat(200_000)}y\r\nDKIM-Signature: v=1\r\n`);
    expect(withinBudget(() => capDkimSignatures(folded)).signatures).toEqual([' v=1']);
    for (const shape of adversarialInputs(100_000, ['\r\n', '\n ', 'DKIM-Signature:'])) {
      withinBudget(() => capDkimSignatures(Buffer.from(shape)));
    }
  });
});

describe('readAuthentication on hostile messages', () => {
  it('verifies only the first signatures of hundreds, asks for their keys only, and says so', async () => {
    const signed = await dkimSigned(testMessage(), { domain: 'sender.test', selector: 's2048', key });
    const raw = Buffer.concat([Buffer.from(Array.from({ length: 300 }, (_, i) => signatureField(i)).join('\r\n') + '\r\n'), signed]);
    const { part, cpu } = await analyse(raw);
    expect(part.value.dkim).toHaveLength(MAX_VERIFIED_SIGNATURES);
    expect(part.value.dkim.every((signature) => signature.result !== 'pass')).toBe(true);
    expect(part.findings.map((finding) => finding.code)).toContain('DKIM_TOO_MANY_SIGNATURES');
    const keyLookups = dns.queryLog.filter((entry) => entry.name.includes('._domainkey.'));
    expect(new Set(keyLookups.map((entry) => entry.name)).size).toBeLessThanOrEqual(MAX_VERIFIED_SIGNATURES);
    expect(cpu).toBeLessThan(ANALYSIS_BUDGET_MS);
  });

  it('reads garbage header values as what they are, within the budget', async () => {
    for (const shape of adversarialInputs(20_000, ['@', 'd=', 'b=', 'i=1;', '\\"'])) {
      const raw = Buffer.from(
        [`DKIM-Signature: ${shape}`, `ARC-Seal: ${shape}`, `ARC-Message-Signature: i=1; ${shape}`, `From: ${shape}`, 'Subject: hostile', '', 'body', ''].join('\r\n'),
      );
      const { part, cpu } = await analyse(raw);
      expect(part.value.dkim.length).toBeLessThanOrEqual(1);
      expect(cpu).toBeLessThan(ANALYSIS_BUDGET_MS);
    }
  });
});
