import { describe, expect, it } from 'vitest';
import { parseAddress } from './address-syntax.js';

const problem = (email: string) => {
  const result = parseAddress(email);
  return result.ok ? null : result.problem;
};

describe('parseAddress', () => {
  it.each([
    'john@example.com',
    'john.smith+news@mail.example.co.uk',
    "o'brien@example.ie",
    'x@example.io',
    '"john smith"@example.com',
    '"a@b"@example.com',
    '"quote\\"d"@example.com',
    `${'a'.repeat(64)}@example.com`,
    'user@xn--bcher-kva.example',
  ])('accepts %s', (email) => {
    expect(parseAddress(email).ok).toBe(true);
  });

  it('splits at the last @, keeping a quoted @ in the local part', () => {
    expect(parseAddress('"a@b"@Example.COM')).toEqual({ ok: true, address: { local: '"a@b"', domain: 'example.com', asciiDomain: 'example.com' } });
  });

  it('accepts internationalised domains and local parts (RFC 6531), converting the domain to A-labels', () => {
    expect(parseAddress('jürgen@bücher.de')).toEqual({ ok: true, address: { local: 'jürgen', domain: 'bücher.de', asciiDomain: 'xn--bcher-kva.de' } });
  });

  it.each([
    ['plainaddress', 'The address is missing the @ sign'],
    ['@example.com', 'The address is missing the part before the @'],
    ['john@', 'The address is missing the domain after the @'],
    ['john doe@example.com', 'The address contains spaces'],
    ['.john@example.com', 'The part before the @ cannot start or end with a dot'],
    ['john.@example.com', 'The part before the @ cannot start or end with a dot'],
    ['john..doe@example.com', 'The part before the @ cannot contain two dots in a row'],
    ['john@doe@example.com', 'The part before the @ contains a character that is not allowed (spaces, commas, brackets, quotes and @ must be quoted)'],
    ['john(comment)@example.com', 'The part before the @ contains a character that is not allowed (spaces, commas, brackets, quotes and @ must be quoted)'],
    ['"unclosed@example.com', 'The quoted part before the @ is not closed or contains a character that must be escaped'],
    [`${'a'.repeat(65)}@example.com`, 'The part before the @ is longer than 64 characters'],
    ['john@example', 'The domain needs a dot and a top-level domain, like example.com'],
    ['john@example..com', 'The domain cannot contain empty labels (two dots in a row, or a leading or trailing dot)'],
    ['john@.example.com', 'The domain cannot contain empty labels (two dots in a row, or a leading or trailing dot)'],
    ['john@-example.com', 'The domain may contain only letters, digits and hyphens, and no part may start or end with a hyphen'],
    ['john@exa_mple.com', 'The domain may contain only letters, digits and hyphens, and no part may start or end with a hyphen'],
    ['john@example.c', 'The top-level domain is not valid'],
    ['john@example.123', 'The top-level domain is not valid'],
    [`john@${'a'.repeat(64)}.com`, 'A part of the domain is longer than 63 characters'],
    ['john@[192.0.2.1]', 'The address uses an IP address instead of a domain'],
    [`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`, 'The address is longer than 254 characters'],
  ])('refuses %s: %s', (email, expected) => {
    expect(problem(email)).toBe(expected);
  });

  it('counts the local part in octets', () => {
    expect(problem(`${'é'.repeat(33)}@example.com`)).toBe('The part before the @ is longer than 64 characters');
  });
});
