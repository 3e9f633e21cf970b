import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
// Through the index, so the package's customError is in force as in the services.
import {
  createDomainBody,
  domainNameParams,
  emailVerifyBody,
  forgotPasswordBody,
  generateReportsBody,
  loginBody,
  registerBody,
  restoreDomainBody,
  sampleDomainParams,
  saveIntegrationBody,
  textField,
  updateTimezoneBody,
} from './index.js';

/** NUL (Postgres refuses it), other C0, DEL, C1 (NEL) and a lone surrogate (no UTF-8 form). */
const CONTROLS = { nul: '\u0000', escape: '\u001b', del: '\u007f', nel: '\u0085', loneSurrogate: '\ud800', lineBreak: '\n', tab: '\t' };

const register = {
  username: 'alice',
  email: 'alice@example.com',
  confirmEmail: 'alice@example.com',
  password: 'secret12',
  confirmPassword: 'secret12',
  firstName: 'Alice',
  lastName: 'Smith',
};

/**
 * Every text a route takes, with a valid body and a way to put a character inside the field (inside,
 * not at an end, where trimming would take a line break away). Passwords and tokens are left out on
 * purpose: they are hashed, never stored as text, and a password is whatever its owner typed.
 */
const fields: Array<{ name: string; schema: z.ZodType; body: (inner: string) => unknown; message?: string }> = [
  { name: 'register firstName', schema: registerBody, body: (c) => ({ ...register, firstName: `Al${c}ice` }), message: 'First name must not contain control characters' },
  { name: 'register lastName', schema: registerBody, body: (c) => ({ ...register, lastName: `Sm${c}ith` }), message: 'Last name must not contain control characters' },
  { name: 'register username', schema: registerBody, body: (c) => ({ ...register, username: `al${c}ice` }) },
  { name: 'register email', schema: registerBody, body: (c) => ({ ...register, email: `al${c}ice@example.com`, confirmEmail: `al${c}ice@example.com` }) },
  { name: 'register quickCheckDomain', schema: registerBody, body: (c) => ({ ...register, quickCheckDomain: `exa${c}mple.com` }) },
  { name: 'login email', schema: loginBody, body: (c) => ({ email: `a${c}@example.com`, password: 'secret12' }) },
  { name: 'forgot-password email', schema: forgotPasswordBody, body: (c) => ({ email: `a${c}@example.com` }) },
  { name: 'timezone', schema: updateTimezoneBody, body: (c) => ({ timezone: `Europe/${c}Paris` }) },
  { name: 'add domain', schema: createDomainBody, body: (c) => ({ name: `exa${c}mple.com` }) },
  { name: 'restore domain', schema: restoreDomainBody, body: (c) => ({ name: `exa${c}mple.com` }) },
  { name: 'domain name param', schema: domainNameParams, body: (c) => ({ domainName: `exa${c}mple.com` }) },
  { name: 'quick check param', schema: sampleDomainParams, body: (c) => ({ domain: `exa${c}mple.com` }) },
  { name: 'email to verify', schema: emailVerifyBody, body: (c) => ({ email: `a${c}b@example.com` }), message: 'Email address must not contain control characters' },
  { name: 'report domain name', schema: generateReportsBody, body: (c) => ({ domains: [{ name: `exa${c}mple.com` }] }), message: 'Domain name must not contain control characters' },
  { name: 'integration token', schema: saveIntegrationBody, body: (c) => ({ service: 'slack', config: { botToken: `xo${c}xb`, channelId: 'C1' } }), message: 'Bot Token must not contain control characters' },
  { name: 'integration webhook URL', schema: saveIntegrationBody, body: (c) => ({ service: 'teams', config: { webhookUrl: `https://hooks.example.com/a${c}b` } }) },
  { name: 'jira domain', schema: saveIntegrationBody, body: (c) => ({ service: 'jira', config: { domain: `acme${c}.atlassian.net`, email: 'a@example.com', apiToken: 't' } }) },
];

describe('every free-text input refuses control characters', () => {
  it.each(fields)('$name: accepts the value without them', ({ schema, body }) => {
    expect(schema.safeParse(body('')).success).toBe(true);
  });

  for (const [kind, character] of Object.entries(CONTROLS)) {
    it.each(fields)(`$name: refuses ${kind}`, ({ schema, body, message }) => {
      const result = schema.safeParse(body(character));
      expect(result.success).toBe(false);
      if (message && !result.success) expect(result.error.issues[0]?.message).toBe(message);
    });
  }
});

describe('textField', () => {
  const note = textField({ label: 'Note', max: 20, multiline: true });
  const title = textField({ label: 'Title', max: 5, required: 'Title is required' });
  const firstMessage = (schema: z.ZodType, input: unknown) => {
    const result = schema.safeParse(input);
    return result.success ? null : result.error.issues[0]?.message;
  };

  it('trims, and keeps tab and line breaks inside a multi-line text only', () => {
    expect(note.parse('  line one\r\n\tline two \n')).toBe('line one\r\n\tline two');
    expect(firstMessage(note, 'a\u0000b')).toBe('Note must not contain control characters');
    expect(firstMessage(note, 'a\u000bb')).toBe('Note must not contain control characters');
    expect(firstMessage(title, 'a\tb')).toBe('Title must not contain control characters');
  });

  it('keeps letters of any script, emoji and symbols (a surrogate pair is one character, not a lone half)', () => {
    expect(textField({ label: 'Name', max: 50 }).parse('Zoë 李 😀 ™')).toBe('Zoë 李 😀 ™');
  });

  it('names the field when it is too long, missing or empty', () => {
    expect(firstMessage(title, 'abcdef')).toBe('Title is too long');
    expect(firstMessage(title, undefined)).toBe('Title is required');
    expect(firstMessage(title, '   ')).toBe('Title is required');
    expect(textField({ label: 'Name', max: 5 }).safeParse(42).success).toBe(false);
  });
});
