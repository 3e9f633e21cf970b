import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

const key = randomBytes(32).toString('base64');

describe('SecretBox', () => {
  it('seals to a fresh ciphertext each time and opens it back', () => {
    const box = new SecretBox(key);
    const a = box.sealJson({ botToken: 'xoxb-1' });
    const b = box.sealJson({ botToken: 'xoxb-1' });
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain('xoxb');
    expect(box.openJson(a)).toEqual({ botToken: 'xoxb-1' });
  });

  it('refuses a value altered at rest, or sealed with another key', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('secret');
    const [v, iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32).toString('base64')).open(sealed)).toThrow();
    expect(() => box.open('plain text')).toThrow('Not a sealed value');
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16).toString('base64'))).toThrow('32 bytes');
  });
});
