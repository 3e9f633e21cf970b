import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { IntegrationService } from '@sendwell/contracts';
import { LEGACY_KEY_ID, type SealingKey } from './sealing-keys.js';

/** The owner and purpose a sealed value belongs to; made only by `sealedFor`. */
export type SealBinding = string & { readonly __sealBinding: unique symbol };

/**
 * What each sealed value is bound to, as GCM additional authenticated data: a value copied into
 * another user's row, or into a column of another purpose, fails to open. Each part is stable for the
 * row's life. A webhook's id is not known before its row is inserted, so its secret is bound to its
 * owner and purpose only (swapping two secrets of one owner gains that owner nothing).
 */
export const sealedFor = {
  integration: (userId: number, service: IntegrationService) => `integration:${userId}:${service}` as SealBinding,
  webhookSecret: (userId: number) => `webhook-secret:${userId}` as SealBinding,
};

/** The full GCM tag; a shorter one given on open is refused, not checked on fewer bits. */
const TAG_BYTES = 16;

/**
 * Seals secrets at rest (integration configs, webhook signing secrets) with AES-256-GCM: a fresh
 * 12-byte IV per value, the tag checked on open, so a row altered in the database fails loudly.
 *
 * Stored as `v2.<keyId>.<iv>.<ciphertext+tag>` (base64url parts), bound to a `SealBinding`. Keys are
 * given newest first: new values are sealed with the first, and any listed key opens what it sealed,
 * so a key is rotated by adding a new one in front, running `secrets:reseal`, then removing the old.
 * The older `v1.<iv>.<tag>.<ciphertext>` values (no key id, no binding) open with key `k0` until resealed.
 */
export class SecretBox {
  private readonly newest: SealingKey;
  private readonly byId: ReadonlyMap<string, Buffer>;

  constructor(keys: readonly SealingKey[]) {
    const [newest] = keys;
    if (!newest) throw new Error('The secret box needs at least one key');
    for (const { id, key } of keys) if (key.length !== 32) throw new Error(`The integrations key ${id} must be 32 bytes`);
    this.newest = newest;
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  seal(plain: string, binding: SealBinding): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.newest.key, iv).setAAD(Buffer.from(binding, 'utf8'));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return ['v2', this.newest.id, iv.toString('base64url'), data.toString('base64url')].join('.');
  }

  open(sealed: string, binding: SealBinding): string {
    const parts = sealed.split('.');
    if (parts[0] === 'v1' && parts.length === 4) return this.openLegacy(parts[1]!, parts[2]!, parts[3]!);
    const [version, keyId, iv, data] = parts;
    if (version !== 'v2' || parts.length !== 4 || !keyId || !iv || !data) throw new Error('Not a sealed value');
    const sealedData = Buffer.from(data, 'base64url');
    if (sealedData.length < TAG_BYTES) throw new Error('Not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key(keyId), Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES }).setAAD(Buffer.from(binding, 'utf8'));
    decipher.setAuthTag(sealedData.subarray(sealedData.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealedData.subarray(0, sealedData.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  sealJson(value: unknown, binding: SealBinding): string {
    return this.seal(JSON.stringify(value), binding);
  }

  openJson<T>(sealed: string, binding: SealBinding): T {
    return JSON.parse(this.open(sealed, binding)) as T;
  }

  /** True when the value is in today's format under the newest key: `secrets:reseal` leaves it alone. */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`v2.${this.newest.id}.`);
  }

  private key(id: string): Buffer {
    const key = this.byId.get(id);
    if (!key) throw new Error(`Sealed with key ${id}, which is not among INTEGRATIONS_ENCRYPTION_KEYS`);
    return key;
  }

  private openLegacy(iv: string, tag: string, data: string): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key(LEGACY_KEY_ID), Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
