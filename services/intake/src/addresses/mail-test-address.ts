import { randomInt } from 'node:crypto';
import { MAIL_TEST_TOKEN_PREFIX, mailTestTokenSchema } from '@sendwell/contracts';

const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const TOKEN_LENGTH = 24;

/** A fresh test token: 24 lower-case letters and digits (about 124 bits), unguessable like a report token. */
export function newMailTestToken(): string {
  return Array.from({ length: TOKEN_LENGTH }, () => TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)]).join('');
}

/**
 * The token of a test address (`test-<token>@<intakeDomain>`), or null for any other address.
 * Case-insensitive like the report addresses: not every sending MTA keeps a local part's case.
 */
export function parseMailTestRecipient(address: string, intakeDomain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at <= 0 || address.slice(at + 1).toLowerCase() !== intakeDomain) return null;
  const local = address.slice(0, at).toLowerCase();
  if (!local.startsWith(MAIL_TEST_TOKEN_PREFIX)) return null;
  const token = local.slice(MAIL_TEST_TOKEN_PREFIX.length);
  return mailTestTokenSchema.safeParse(token).success ? token : null;
}
