import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
// Through the index, so the package's customError ('Required' for a missing field) is in force.
import {
  createDomainBody,
  dateFormatSchema,
  dateFormats,
  domainNameSchema,
  emailVerifyBody,
  landingDomainError,
  loginBody,
  messages,
  popupDateFormats,
  registerBody,
  resetPasswordBody,
  resetPasswordFormSchema,
  restoreDomainBody,
  sampleDomainParams,
  timezoneOptions,
  timezoneSchema,
  verifyEmailQuery,
} from './index.js';

/** Every message of a failed parse, keyed by path. */
function errors(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of result.error.issues) (out[issue.path.join('.')] ??= []).push(issue.message);
  return out;
}

describe('login (part 1 §5)', () => {
  it('accepts a valid email and an 8-character password', () => {
    expect(loginBody.safeParse({ email: 'a@example.com', password: '12345678' }).success).toBe(true);
  });
  it("says 'Please enter a valid email' for a bad email", () => {
    expect(errors(loginBody, { email: 'nope', password: '12345678' })).toEqual({ email: ['Please enter a valid email'] });
  });
  it("says 'Password must be at least 8 characters' for a 7-character or missing password (the spec's 6, raised)", () => {
    expect(errors(loginBody, { email: 'a@example.com', password: '1234567' })).toEqual({
      password: ['Password must be at least 8 characters'],
    });
    expect(errors(loginBody, { email: 'a@example.com' })).toEqual({ password: ['Password must be at least 8 characters'] });
  });
  it("says 'Required' for a missing email", () => {
    expect(errors(loginBody, { password: '12345678' }).email).toEqual(['Required']);
  });
});

describe('register (part 1 §5)', () => {
  const valid = {
    username: 'alice',
    email: 'alice@example.com',
    confirmEmail: 'alice@example.com',
    password: 'secret12',
    confirmPassword: 'secret12',
    firstName: 'Alice',
    lastName: '',
  };

  it('accepts a valid form and fills the defaults', () => {
    const parsed = registerBody.parse(valid);
    expect(parsed.signupSource).toBe('direct');
    expect(parsed.quickCheckDomain).toBeNull();
    expect(parsed.showUpgradeNotification).toBe(false);
    expect(parsed.lastName).toBeNull();
  });
  it('reads an unknown signup source as direct and lower-cases the quick-check domain', () => {
    const parsed = registerBody.parse({ ...valid, signupSource: 'elsewhere', quickCheckDomain: ' Example.COM ' });
    expect(parsed.signupSource).toBe('direct');
    expect(parsed.quickCheckDomain).toBe('example.com');
    expect(registerBody.parse({ ...valid, signupSource: 'quick-check' }).signupSource).toBe('quick-check');
    expect(registerBody.parse({ ...valid, signupSource: 'landing_page' }).signupSource).toBe('landing_page');
  });
  it('checks email and confirmEmail', () => {
    expect(errors(registerBody, { ...valid, email: 'x', confirmEmail: 'y' })).toEqual({
      email: ['Please enter a valid email'],
      confirmEmail: ['Please enter a valid email'],
    });
  });
  it('checks both password lengths (8) with their own messages', () => {
    expect(errors(registerBody, { ...valid, password: '1234567', confirmPassword: '1234567' })).toEqual({
      password: ['Password must be at least 8 characters'],
      confirmPassword: ['Confirm password must be at least 8 characters'],
    });
  });
  it("says 'Passwords don't match' on confirmPassword", () => {
    expect(errors(registerBody, { ...valid, confirmPassword: 'secret22' })).toEqual({ confirmPassword: ["Passwords don't match"] });
  });
  it("says 'Email addresses don't match' on confirmEmail", () => {
    expect(errors(registerBody, { ...valid, confirmEmail: 'bob@example.com' })).toEqual({
      confirmEmail: ["Email addresses don't match"],
    });
  });
  it('reports both mismatches at once', () => {
    expect(errors(registerBody, { ...valid, confirmEmail: 'bob@example.com', confirmPassword: 'secret22' })).toEqual({
      confirmPassword: ["Passwords don't match"],
      confirmEmail: ["Email addresses don't match"],
    });
  });
  it('requires a username', () => {
    expect(errors(registerBody, { ...valid, username: '' }).username).toEqual(['Required']);
    const { username: _omit, ...rest } = valid;
    expect(errors(registerBody, rest).username).toEqual(['Required']);
  });
  it('keeps first and last name optional', () => {
    const { firstName: _f, lastName: _l, ...rest } = valid;
    expect(registerBody.safeParse(rest).success).toBe(true);
  });
});

describe('reset password (part 1 §5)', () => {
  it("needs 8 characters: 'Password must be at least 8 characters'", () => {
    expect(errors(resetPasswordBody, { token: 't', newPassword: '1234567' })).toEqual({
      newPassword: ['Password must be at least 8 characters'],
    });
    expect(resetPasswordBody.safeParse({ token: 't', newPassword: '12345678' }).success).toBe(true);
  });
  it('refuses a missing token with the reset-token message', () => {
    expect(errors(resetPasswordBody, { token: '  ', newPassword: '12345678' })).toEqual({ token: [messages.resetTokenMissing] });
    expect(messages.resetTokenMissing).toBe('Invalid or missing reset token. Please request a new password reset.');
  });
  it('the form checks both fields and their match', () => {
    expect(errors(resetPasswordFormSchema, { password: 'short', confirmPassword: 'short' })).toEqual({
      password: ['Password must be at least 8 characters'],
      confirmPassword: ['Password must be at least 8 characters'],
    });
    expect(errors(resetPasswordFormSchema, { password: '12345678', confirmPassword: '12345679' })).toEqual({
      confirmPassword: ["Passwords don't match"],
    });
  });
  it("account verification without a token says 'Verification token is missing'", () => {
    expect(errors(verifyEmailQuery, {})).toEqual({ token: ['Verification token is missing'] });
    expect(errors(verifyEmailQuery, { token: '' })).toEqual({ token: ['Verification token is missing'] });
  });
});

describe('add domain (part 1 §5)', () => {
  const invalid = 'Please enter a valid domain name (e.g., example.com, domain.co.uk, example.com.au)';

  it('trims and lower-cases', () => {
    expect(createDomainBody.parse({ name: '  Example.COM ' })).toEqual({ name: 'example.com' });
    expect(restoreDomainBody.parse({ name: 'MAIL.Example.co.uk' })).toEqual({ name: 'mail.example.co.uk' });
  });
  it("says 'Domain must be at least 4 characters.' below 4 characters", () => {
    expect(errors(createDomainBody, { name: ' a.b ' }).name).toContain('Domain must be at least 4 characters.');
  });
  it('names the examples in the pattern message', () => {
    expect(messages.domainInvalid).toBe(invalid);
    for (const bad of ['example', 'exa mple.com', '-example.com', 'example-.com', 'example.c', 'example.c0m', 'ex_ample.com', 'example..com', `${'a'.repeat(64)}.com`]) {
      expect(errors(createDomainBody, { name: bad }).name, bad).toEqual([invalid]);
    }
  });
  it('accepts valid names, including 63-character labels and hyphens inside', () => {
    for (const good of ['example.com', 'domain.co.uk', 'example.com.au', 'my-site.io', `${'a'.repeat(63)}.com`, 'x1.dev']) {
      expect(domainNameSchema.safeParse(good).success, good).toBe(true);
    }
  });
  it('validates the quick-check param the same way', () => {
    expect(sampleDomainParams.parse({ domain: 'Example.com' })).toEqual({ domain: 'example.com' });
    expect(sampleDomainParams.safeParse({ domain: 'not a domain' }).success).toBe(false);
  });
  it("says 'Required' when the name is missing", () => {
    expect(errors(createDomainBody, {}).name).toEqual(['Required']);
  });
});

describe('landing domain input, rules in order (part 2 §5)', () => {
  it.each([
    ['', 'Please enter a domain name'],
    ['   ', 'Please enter a domain name'],
    ['me@example.com', 'Please enter a domain name, not an email address'],
    // "@" is checked before the IP rule
    ['me@1.2.3.4', 'Please enter a domain name, not an email address'],
    ['192.168.0.1', 'Please enter a domain name, not an IP address'],
    ['2001:db8::1', 'Please enter a domain name, not an IP address'],
    ['fe80::1', 'Please enter a domain name, not an IP address'],
    ['example', 'Please enter a valid domain name (e.g., example.com)'],
    ['example.com:8080', 'Please enter a valid domain name (e.g., example.com)'],
    ['-bad.com', 'Please enter a valid domain name (e.g., example.com)'],
  ])('%j gives %j', (input, message) => {
    expect(landingDomainError(input)).toBe(message);
  });
  it('accepts a valid domain, trimmed', () => {
    expect(landingDomainError('  example.com ')).toBeNull();
    expect(landingDomainError('sub.example.co.uk')).toBeNull();
  });
});

describe('email address verification (part 2 §5)', () => {
  it("empty or whitespace gives 'Please enter an email address to verify'", () => {
    expect(errors(emailVerifyBody, { email: '' })).toEqual({ email: ['Please enter an email address to verify'] });
    expect(errors(emailVerifyBody, { email: '   ' })).toEqual({ email: ['Please enter an email address to verify'] });
    expect(errors(emailVerifyBody, {})).toEqual({ email: ['Please enter an email address to verify'] });
  });
  it('trims before sending and leaves format to the verifier', () => {
    expect(emailVerifyBody.parse({ email: '  a@example.com ' })).toEqual({ email: 'a@example.com' });
    expect(emailVerifyBody.parse({ email: 'not-an-address' })).toEqual({ email: 'not-an-address' });
  });
});

describe('preferences', () => {
  it('offers six date formats in the popup and nine in settings', () => {
    expect(popupDateFormats).toEqual(['MM/dd/yyyy', 'dd/MM/yyyy', 'yyyy-MM-dd', 'dd MMM yyyy', 'MMM dd, yyyy', 'MMMM dd, yyyy']);
    expect(dateFormats).toHaveLength(9);
    expect(dateFormats.slice(6)).toEqual(['dd MMMM yyyy', 'MM-dd-yyyy', 'dd-MM-yyyy']);
    expect(dateFormatSchema.safeParse('yyyy/MM/dd').success).toBe(false);
  });
  it('lists about fifty zones from GMT-12:00 to GMT+14:00, all valid IANA names', () => {
    expect(timezoneOptions.length).toBeGreaterThanOrEqual(45);
    expect(timezoneOptions[0]?.label).toContain('GMT-12:00');
    expect(timezoneOptions.at(-1)?.label).toContain('GMT+14:00');
    for (const zone of timezoneOptions) expect(timezoneSchema.safeParse(zone.value).success, zone.value).toBe(true);
    expect(timezoneSchema.safeParse('Mars/Olympus').success).toBe(false);
  });
});
