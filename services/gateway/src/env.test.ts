import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.js';

const production = { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-at-least-32-characters', TRUSTED_PROXIES: 'none' };

describe('gateway settings in production', () => {
  it('names the load balancers it trusts, "none" at the edge, and never every address', () => {
    const { TRUSTED_PROXIES: _, ...unnamed } = production;
    expect(() => loadEnv(unnamed)).toThrow(/Invalid environment for gateway: TRUSTED_PROXIES: must be set in production/);
    expect(loadEnv(production).TRUSTED_PROXIES).toEqual([]);
    expect(loadEnv({ ...production, TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1' }).TRUSTED_PROXIES).toEqual(['10.0.0.0/8', '192.0.2.1']);
    expect(() => loadEnv({ ...production, TRUSTED_PROXIES: '0.0.0.0/0' })).toThrow(/TRUSTED_PROXIES: must not trust every address/);
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

  it('reads the history and scan-detail limits, with defaults generous enough for a person, and refuses one that is not a limit', () => {
    expect(loadEnv({})).toMatchObject({ RATE_LIMIT_HISTORY: { max: 60, windowMs: 60_000 }, RATE_LIMIT_SCAN_DETAIL: { max: 120, windowMs: 60_000 } });
    expect(loadEnv({ RATE_LIMIT_HISTORY: '5/10s', RATE_LIMIT_SCAN_DETAIL: '1000/1h' })).toMatchObject({
      RATE_LIMIT_HISTORY: { max: 5, windowMs: 10_000 },
      RATE_LIMIT_SCAN_DETAIL: { max: 1000, windowMs: 3_600_000 },
    });
    expect(() => loadEnv({ RATE_LIMIT_HISTORY: 'sixty a minute' })).toThrow(/RATE_LIMIT_HISTORY: expected "<count>\/<window>"/);
    expect(() => loadEnv({ RATE_LIMIT_SCAN_DETAIL: '0/1m' })).toThrow(/RATE_LIMIT_SCAN_DETAIL/);
    expect(() => loadEnv({ RATE_LIMIT_SCAN_DETAIL: '120/1w' })).toThrow(/RATE_LIMIT_SCAN_DETAIL/);
  });
});
