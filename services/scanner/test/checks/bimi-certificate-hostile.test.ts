import { X509Certificate } from 'node:crypto';
import { createTestCa, issueMarkCertificate, type TestCa } from '@sendwell/testing';
import { adversarialInputs, hostileText, withinBudget } from '@sendwell/testing/hostile';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { inspectMarkCertificate, MAX_CHAIN_CERTIFICATES, readPemChain } from '../../src/checks/bimi/certificate.js';
import { certificateExtensions, DerError, ia5Strings, subjectAttributes } from '../../src/checks/bimi/der.js';
import { MAX_CERTIFICATE_BYTES } from '../../src/checks/bimi/findings.js';

/**
 * Issue 24: a hostile Mark Certificate file (PEM text up to the 256 KB the fetch reads, and the DER
 * inside it) is read in linear time; what cannot be read is a reason in words, never a thrown error.
 */

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 1 1"><title>T</title></svg>';

let ca: TestCa;
let markPem: string;

beforeAll(async () => {
  ca = await createTestCa();
  markPem = (await issueMarkCertificate(ca, { domains: ['good.test'], svg: LOGO })).cert;
});

describe('the PEM file of a Mark Certificate against hostile input', () => {
  it('reads 256 KB of unclosed BEGIN lines within the budget (the lazy PEM regex took 1.5 s)', () => {
    const unclosed = BEGIN.repeat(Math.floor(MAX_CERTIFICATE_BYTES / BEGIN.length));
    expect(withinBudget(() => readPemChain(unclosed))).toBe('it holds no PEM certificate ("-----BEGIN CERTIFICATE-----")');
    const chain = withinBudget(() => readPemChain(`${BEGIN}\n${'A'.repeat(MAX_CERTIFICATE_BYTES - 4096)}\n${markPem}`));
    expect(chain).toHaveLength(1);
    expect((chain as X509Certificate[])[0]?.subjectAltName).toContain('DNS:good.test');
  });

  it(`refuses a file of more than ${MAX_CHAIN_CERTIFICATES} certificates`, () => {
    expect(readPemChain(markPem.repeat(MAX_CHAIN_CERTIFICATES))).toHaveLength(MAX_CHAIN_CERTIFICATES);
    expect(withinBudget(() => readPemChain(markPem.repeat(MAX_CHAIN_CERTIFICATES + 1)))).toBe(`it holds more than ${MAX_CHAIN_CERTIFICATES} certificates, more than any mark certificate chain`);
  });

  it('reads arbitrary and adversarial files within the budget, a chain or a reason', () => {
    fc.assert(
      fc.property(hostileText([BEGIN, END, '\n', 'MIIB', 'AAAA', '=', markPem]), (pem) => {
        const chain = withinBudget(() => readPemChain(pem));
        expect(typeof chain === 'string' || chain.length > 0).toBe(true);
      }),
      { numRuns: 200 },
    );
    for (const pem of adversarialInputs(MAX_CERTIFICATE_BYTES, [BEGIN, `${BEGIN}${END}`, `${BEGIN}\nA`, '-----'])) withinBudget(() => readPemChain(pem));
  });
});

describe('the DER of a Mark Certificate against hostile input', () => {
  it('reads arbitrary bytes and damaged certificates within the budget, throwing DerError only', () => {
    const der = new X509Certificate(markPem).raw;
    const damaged = fc.tuple(fc.integer({ min: 0, max: der.length - 1 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 8 })).map(([at, byte, count]) => {
      const copy = Buffer.from(der);
      for (let i = at; i < Math.min(at + count, copy.length); i++) copy[i] = byte;
      return copy;
    });
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)), damaged), (bytes) => {
        for (const read of [() => certificateExtensions(bytes), () => subjectAttributes(bytes, '2.5.4.3'), () => ia5Strings(bytes)]) {
          const outcome = withinBudget(() => {
            try {
              return read();
            } catch (error) {
              return error;
            }
          });
          if (outcome instanceof Error) expect(outcome).toBeInstanceOf(DerError);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('still reads a real certificate and its embedded logo', () => {
    const chain = readPemChain(markPem) as X509Certificate[];
    const inspected = inspectMarkCertificate(chain, undefined);
    expect(typeof inspected === 'string' ? inspected : inspected.embeddedLogo?.toString('utf8')).toBe(LOGO);
  });
});
