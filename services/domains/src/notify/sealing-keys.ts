/** An AES-256 key of the secret box and the id written beside every value sealed with it. */
export interface SealingKey {
  id: string;
  key: Buffer;
}

/**
 * The id `INTEGRATIONS_ENCRYPTION_KEY` (one key, the setting before rotation) stands for. Values of the
 * `v1` format carry no key id and were all sealed with that key, so they open with the key of this id.
 */
export const LEGACY_KEY_ID = 'k0';

const KEY_ID = /^[\w-]{1,32}$/;
/** 32 bytes in standard base64, as `openssl rand -base64 32` prints them. */
const BASE64_32_BYTES = /^[\d+/a-z]{43}=$/i;

export function decodeSealingKey(base64: string): Buffer {
  if (!BASE64_32_BYTES.test(base64)) throw new Error('must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return Buffer.from(base64, 'base64');
}

/**
 * Reads `INTEGRATIONS_ENCRYPTION_KEYS`: comma-separated `id:base64key`, newest first. New values are
 * sealed with the first; the others only open what was sealed before they were rotated out.
 * Errors name the entry by position, never by its key.
 */
export function parseSealingKeys(list: string): SealingKey[] {
  const keys = list.split(',').map((entry, index): SealingKey => {
    const at = `entry ${index + 1}`;
    const colon = entry.indexOf(':');
    if (colon < 0) throw new Error(`${at} must be id:base64key`);
    const id = entry.slice(0, colon).trim();
    if (!KEY_ID.test(id)) throw new Error(`${at}: the id must be 1 to 32 letters, digits, "_" or "-"`);
    try {
      return { id, key: decodeSealingKey(entry.slice(colon + 1).trim()) };
    } catch (error) {
      throw new Error(`${at} (${id}): the key ${(error as Error).message}`);
    }
  });
  const seen = new Set<string>();
  for (const { id } of keys) {
    if (seen.has(id)) throw new Error(`the id ${id} is used twice`);
    seen.add(id);
  }
  return keys;
}
