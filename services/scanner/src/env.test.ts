import { describe, expect, it } from 'vitest';
import { loadEnv, scanConfigFromEnv } from './env.js';

describe('scanner settings', () => {
  it('reads block lists with their listing codes, and refuses a code outside 127.0.0.0/8 at start', () => {
    expect(loadEnv({ DNSBL_IP_ZONES: 'zen.example=127.0.0.2,127.0.0.4, bl.example' }).DNSBL_IP_ZONES).toEqual([
      { zone: 'zen.example', listedCodes: ['127.0.0.2', '127.0.0.4'] },
      { zone: 'bl.example' },
    ]);
    expect(() => loadEnv({ DNSBL_DOMAIN_ZONES: 'dbl.example=10.0.0.1' })).toThrow(
      'Invalid environment for scanner: DNSBL_DOMAIN_ZONES: "10.0.0.1" is not a listing code: block lists answer with addresses in 127.0.0.0/8',
    );
  });

  it('hands the outbound guard its policy: loopback only when ALLOW_LOOPBACK_TARGETS is set', () => {
    expect(scanConfigFromEnv(loadEnv({})).outbound).toEqual({ allowLoopback: false });
    expect(scanConfigFromEnv(loadEnv({ NODE_ENV: 'test', ALLOW_LOOPBACK_TARGETS: 'true' })).outbound).toEqual({ allowLoopback: true });
  });

  it('refuses the placeholder EHLO name in production: receiving servers check that it resolves to the prober', () => {
    expect(scanConfigFromEnv(loadEnv({})).heloName).toBe('scanner.sendwell.invalid');
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(48), DATABASE_URL: 'postgres://db.internal/sendwell', REDIS_URL: 'redis://redis.internal:6379' };
    expect(() => loadEnv(production)).toThrow(/SCAN_HELO_NAME: must be set in production/);
    expect(() => loadEnv({ SCAN_HELO_NAME: 'not a name' })).toThrow(/SCAN_HELO_NAME: must be a fully qualified host name/);
  });

  it('reads INTAKE_DOMAIN for the report addresses it recommends, and refuses the development default in production', () => {
    expect(scanConfigFromEnv(loadEnv({})).intakeDomain).toBe('reports.sendwell.localhost');
    expect(scanConfigFromEnv(loadEnv({ INTAKE_DOMAIN: 'Reports.Example.com' })).intakeDomain).toBe('reports.example.com');
    expect(() => loadEnv({ INTAKE_DOMAIN: 'not a domain' })).toThrow(/INTAKE_DOMAIN: must be a domain name/);
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(48), DATABASE_URL: 'postgres://db.internal/sendwell', REDIS_URL: 'redis://redis.internal:6379' };
    expect(() => loadEnv(production)).toThrow(/INTAKE_DOMAIN: must be set in production/);
  });
});
