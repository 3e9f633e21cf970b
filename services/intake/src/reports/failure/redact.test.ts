import { describe, expect, it } from 'vitest';
import { domainOfAddress, redactAddresses } from './redact.js';
import { cpuMsSince } from '@sendwell/testing/hostile';

describe('redactAddresses', () => {
  it.each([
    ['alice@example.com', '***@example.com'],
    ['Alice <alice.smith+tag@example.com>, bob@example.org', 'Alice <***@example.com>, ***@example.org'],
    ['"Alice Smith"@example.com', '***@example.com'],
    ['smtp.mailfrom=bounce@example.com header.i=@example.com', 'smtp.mailfrom=***@example.com header.i=@example.com'],
    ['SRS0=ab=cd=example.org=user@forwarder.example', '***@forwarder.example'],
    ['a@b@c', '***@***@c'],
    ['no address here', 'no address here'],
  ])('%s', (input, redacted) => {
    expect(redactAddresses(input)).toBe(redacted);
  });

  it('stays linear on many @ and quotes', () => {
    const hostile = `${'a'.repeat(100_000)}${'"@'.repeat(50_000)}${'x@'.repeat(50_000)}`;
    const started = process.cpuUsage();
    redactAddresses(hostile);
    expect(cpuMsSince(started)).toBeLessThan(200);
  });
});

describe('domainOfAddress', () => {
  it.each([
    ['Alice <alice@Example.COM>', 'example.com'],
    ['<bounce@bulk.example.com>', 'bulk.example.com'],
    ['<>', null],
    ['not an address', null],
  ])('%s', (input, domain) => {
    expect(domainOfAddress(input)).toBe(domain);
  });
});
