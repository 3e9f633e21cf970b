import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../env.js';
import { DEV_INTEGRATIONS_KEY, integrationKeys } from './notify.env.js';

const base = { DATABASE_URL: 'postgres://localhost/x', REDIS_URL: 'redis://localhost:6379', NODE_ENV: 'test' };
const key = () => randomBytes(32).toString('base64');
const keysOf = (env: Record<string, string>) => integrationKeys(loadEnv({ ...base, ...env }));
const refusal = (env: Record<string, string>) => {
  try {
    loadEnv({ ...base, ...env });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the settings were accepted');
};

describe('secret box keys', () => {
  it('reads INTEGRATIONS_ENCRYPTION_KEYS newest first', () => {
    const [a, b] = [key(), key()];
    expect(keysOf({ INTEGRATIONS_ENCRYPTION_KEYS: `k2:${a}, k1:${b}` })).toEqual([
      { id: 'k2', key: Buffer.from(a, 'base64') },
      { id: 'k1', key: Buffer.from(b, 'base64') },
    ]);
  });

  it('reads INTEGRATIONS_ENCRYPTION_KEY as key k0, and the development key when neither is set', () => {
    const a = key();
    expect(keysOf({ INTEGRATIONS_ENCRYPTION_KEY: a })).toEqual([{ id: 'k0', key: Buffer.from(a, 'base64') }]);
    expect(keysOf({})).toEqual([{ id: 'k0', key: Buffer.from(DEV_INTEGRATIONS_KEY, 'base64') }]);
  });

  it.each([
    [{ INTEGRATIONS_ENCRYPTION_KEYS: 'k1' }, 'INTEGRATIONS_ENCRYPTION_KEYS: entry 1 must be id:base64key'],
    [{ INTEGRATIONS_ENCRYPTION_KEYS: `k1:${key()},` }, 'INTEGRATIONS_ENCRYPTION_KEYS: entry 2 must be id:base64key'],
    [{ INTEGRATIONS_ENCRYPTION_KEYS: `k 1:${key()}` }, 'INTEGRATIONS_ENCRYPTION_KEYS: entry 1: the id must be 1 to 32 letters, digits, "_" or "-"'],
    [{ INTEGRATIONS_ENCRYPTION_KEYS: `k1:${randomBytes(16).toString('base64')}` }, 'INTEGRATIONS_ENCRYPTION_KEYS: entry 1 (k1): the key must be 32 bytes, base64-encoded (openssl rand -base64 32)'],
    [{ INTEGRATIONS_ENCRYPTION_KEYS: `k1:${key()},k1:${key()}` }, 'INTEGRATIONS_ENCRYPTION_KEYS: the id k1 is used twice'],
    [{ INTEGRATIONS_ENCRYPTION_KEY: 'not-a-key' }, 'INTEGRATIONS_ENCRYPTION_KEY: must be 32 bytes, base64-encoded (openssl rand -base64 32)'],
    [{ INTEGRATIONS_ENCRYPTION_KEYS: `k1:${key()}`, INTEGRATIONS_ENCRYPTION_KEY: key() }, 'INTEGRATIONS_ENCRYPTION_KEY: set INTEGRATIONS_ENCRYPTION_KEYS or INTEGRATIONS_ENCRYPTION_KEY, not both'],
  ])('refuses %j with a message naming the setting', (env, message) => {
    expect(refusal(env)).toContain(message);
  });

  it('never repeats a key in its message', () => {
    const secret = randomBytes(20).toString('base64');
    expect(refusal({ INTEGRATIONS_ENCRYPTION_KEYS: `k1:${secret}` })).not.toContain(secret);
  });

  it('refuses the development key in production, by default or listed among the keys', () => {
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com:587', JWT_SECRET: randomBytes(32).toString('hex') };
    expect(refusal(production)).toContain('INTEGRATIONS_ENCRYPTION_KEY: must hold keys of your own when NODE_ENV is production (key k0 is the development key)');
    expect(refusal({ ...production, INTEGRATIONS_ENCRYPTION_KEYS: `k1:${key()},old:${DEV_INTEGRATIONS_KEY}` })).toContain(
      'INTEGRATIONS_ENCRYPTION_KEYS: must hold keys of your own when NODE_ENV is production (key old is the development key)',
    );
  });
});
