import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sealedFor, SecretBox } from './secret-box.js';
import { LEGACY_KEY_ID, type SealingKey } from './sealing-keys.js';

const newKey = (id: string): SealingKey => ({ id, key: randomBytes(32) });
const k1 = newKey('k1');
const slack = sealedFor.integration(7, 'slack');

/** A value as the first format sealed it: `v1.<iv>.<tag>.<ciphertext>`, no key id, no binding. */
function sealV1(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

describe('SecretBox', () => {
  it('seals to a fresh ciphertext under the newest key id each time and opens it back', () => {
    const box = new SecretBox([k1]);
    const a = box.sealJson({ botToken: 'xoxb-1' }, slack);
    const b = box.sealJson({ botToken: 'xoxb-1' }, slack);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v2\.k1\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain('xoxb');
    expect(box.openJson(a, slack)).toEqual({ botToken: 'xoxb-1' });
    expect(box.isCurrent(a)).toBe(true);
  });

  it("refuses a value copied into another user's row", () => {
    const box = new SecretBox([k1]);
    expect(() => box.open(box.seal('secret', sealedFor.integration(7, 'slack')), sealedFor.integration(8, 'slack'))).toThrow();
    expect(() => box.open(box.seal('whsec_1', sealedFor.webhookSecret(7)), sealedFor.webhookSecret(8))).toThrow();
  });

  it('refuses a value used for another purpose', () => {
    const box = new SecretBox([k1]);
    expect(() => box.open(box.seal('secret', sealedFor.integration(7, 'slack')), sealedFor.integration(7, 'discord'))).toThrow();
    expect(() => box.open(box.seal('secret', sealedFor.integration(7, 'slack')), sealedFor.webhookSecret(7))).toThrow();
  });

  it('opens a value sealed under an older key after a new key is added in front, and seals new ones with the new key', () => {
    const sealed = new SecretBox([k1]).seal('secret', slack);
    const rotated = new SecretBox([newKey('k2'), k1]);
    expect(rotated.open(sealed, slack)).toBe('secret');
    expect(rotated.isCurrent(sealed)).toBe(false);
    expect(rotated.seal('secret', slack)).toMatch(/^v2\.k2\./);
    expect(() => new SecretBox([newKey('k2')]).open(sealed, slack)).toThrow('Sealed with key k1, which is not among INTEGRATIONS_ENCRYPTION_KEYS');
  });

  it('refuses a value altered at rest, or under a key of the same id with other bytes', () => {
    const box = new SecretBox([k1]);
    const sealed = box.seal('secret', slack);
    const [v, id, iv, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([v, id, iv, flipped.toString('base64url')].join('.'), slack)).toThrow();
    expect(() => new SecretBox([newKey('k1')]).open(sealed, slack)).toThrow();
    expect(() => box.open('plain text', slack)).toThrow('Not a sealed value');
    expect(() => box.open('v2.k1.aaaa.aaaa', slack)).toThrow('Not a sealed value');
  });

  it('opens a v1 value with key k0 and no binding, and counts it as not current', () => {
    const legacy = newKey(LEGACY_KEY_ID);
    const v1 = sealV1(legacy.key, '{"botToken":"xoxb-1"}');
    const box = new SecretBox([k1, legacy]);
    expect(box.openJson(v1, slack)).toEqual({ botToken: 'xoxb-1' });
    expect(box.isCurrent(v1)).toBe(false);
    expect(() => new SecretBox([k1]).open(v1, slack)).toThrow('Sealed with key k0');
    const shortTag = v1.split('.');
    shortTag[2] = Buffer.from(shortTag[2]!, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => box.open(shortTag.join('.'), slack)).toThrow();
  });

  it('needs 32-byte keys, at least one', () => {
    expect(() => new SecretBox([{ id: 'k1', key: randomBytes(16) }])).toThrow('32 bytes');
    expect(() => new SecretBox([])).toThrow('at least one key');
  });
});
