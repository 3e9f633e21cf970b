import { createHash, randomBytes } from 'node:crypto';

/** A token for a mailed link: 32 random bytes, URL-safe. Only its hash is stored. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

/** SHA-256 (hex) of a mailed token: a leaked table must not let anyone use the links. */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
