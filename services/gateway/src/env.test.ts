import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.js';

const production = { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-at-least-32-characters' };

describe('gateway settings in production', () => {
  it('refuses TRUST_PROXY=true, naming the setting and what to give instead', () => {
    for (const value of ['true', 'yes', 'on']) {
      expect(() => loadEnv({ ...production, TRUST_PROXY: value })).toThrow(
        /Invalid environment for gateway: TRUST_PROXY: must not be "true" in production: .*give the number of proxies in front of the gateway \(such as "1"\) or their addresses/,
      );
    }
  });

  it('accepts a hop count or addresses, and trusting every hop outside production', () => {
    expect(typeof loadEnv({ ...production, TRUST_PROXY: '1' }).TRUST_PROXY).toBe('function');
    expect(loadEnv({ ...production, TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '192.0.2.1']);
    expect(loadEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
  });

  it('serves HSTS by default in production only, and lets either be set', () => {
    expect(loadEnv(production).TRUST_HTTPS).toBe(true);
    expect(loadEnv({ ...production, TRUST_HTTPS: 'false' }).TRUST_HTTPS).toBe(false);
    expect(loadEnv({}).TRUST_HTTPS).toBe(false);
    expect(loadEnv({ TRUST_HTTPS: 'true' }).TRUST_HTTPS).toBe(true);
  });

  it('puts the internal listener on loopback unless told otherwise', () => {
    expect(loadEnv({})).toMatchObject({ INTERNAL_HOST: '127.0.0.1', INTERNAL_PORT: 3010 });
    expect(loadEnv({ INTERNAL_HOST: '0.0.0.0', INTERNAL_PORT: '9464' })).toMatchObject({ INTERNAL_HOST: '0.0.0.0', INTERNAL_PORT: 9464 });
  });

  it('refuses an APP_URL that is not a URL', () => {
    expect(() => loadEnv({ APP_URL: 'sendwell.example' })).toThrow(/APP_URL/);
  });

  it('limits bodies to the services’ 1 MiB unless told otherwise, and refuses a limit that is not a byte count', () => {
    expect(loadEnv({}).BODY_LIMIT_BYTES).toBe(1_048_576);
    expect(loadEnv({ BODY_LIMIT_BYTES: '65536' }).BODY_LIMIT_BYTES).toBe(65_536);
    expect(() => loadEnv({ BODY_LIMIT_BYTES: '1M' })).toThrow(/BODY_LIMIT_BYTES/);
  });
});
