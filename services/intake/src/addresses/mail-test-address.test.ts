import { mailTestAddressOf } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { newMailTestToken, parseMailTestRecipient } from './mail-test-address.js';
import { parseReportRecipient } from './report-address.js';

const domain = 'reports.sendwell.test';
const token = 'a1b2c3d4e5f60718293a4b5c';

describe('parseMailTestRecipient', () => {
  it('reads the token of a test address, in any case', () => {
    expect(parseMailTestRecipient(mailTestAddressOf(token, domain), domain)).toBe(token);
    expect(parseMailTestRecipient(`TEST-${token.toUpperCase()}@Reports.Sendwell.Test`, domain)).toBe(token);
  });

  it('refuses every other address, report addresses included', () => {
    for (const address of [`${token}@${domain}`, `tls-${token}@${domain}`, `test-${token}@other.test`, `test-${token}x@${domain}`, `test-@${domain}`, `test-${token}+tag@${domain}`, `test-${token}`]) {
      expect(parseMailTestRecipient(address, domain), address).toBeNull();
    }
  });

  it('is never read as a report address', () => {
    expect(parseReportRecipient(mailTestAddressOf(token, domain), domain)).toBeNull();
  });
});

describe('newMailTestToken', () => {
  it('makes tokens the address accepts, each different', () => {
    const tokens = Array.from({ length: 50 }, newMailTestToken);
    for (const t of tokens) expect(parseMailTestRecipient(mailTestAddressOf(t, domain), domain)).toBe(t);
    expect(new Set(tokens).size).toBe(50);
  });
});
