import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emailVerifierConfig, emailVerifyEnvFields } from './email-verify.env.js';

const parse = (env: Record<string, string>) => z.object(emailVerifyEnvFields).safeParse(env);

describe('email verification settings', () => {
  it('defaults to no probing, port 25, 60 an hour, 5,000 a day in bulk and the system resolvers', () => {
    const parsed = parse({});
    expect(parsed.success).toBe(true);
    expect(emailVerifierConfig(parsed.data!)).toEqual({
      dns: { servers: [], timeoutMs: 2000 },
      verifier: { smtpProbe: false, smtpPort: 25, heloDomain: 'sendwell.local', smtpTimeoutMs: 5000, outbound: { allowLoopback: false } },
      rateLimit: { limit: 60, windowSeconds: 3600, bulkLimit: 5000, bulkWindowSeconds: 86400 },
    });
  });

  it('reads "false" as off and takes resolver lists with ports and IPv6', () => {
    const parsed = parse({ EMAIL_VERIFY_SMTP_PROBE: 'false', DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[::1]:53,::1' });
    expect(parsed.data?.EMAIL_VERIFY_SMTP_PROBE).toBe(false);
    expect(parsed.data?.DNS_SERVERS).toEqual(['1.1.1.1', '127.0.0.1:5353', '[::1]:53', '::1']);
    expect(parse({ EMAIL_VERIFY_SMTP_PROBE: 'true' }).data?.EMAIL_VERIFY_SMTP_PROBE).toBe(true);
  });

  it.each([
    [{ DNS_SERVERS: 'dns.google' }, '"dns.google" is not an IP address with an optional port'],
    [{ DNS_SERVERS: '127.0.0.1:99999' }, '"127.0.0.1:99999" is not an IP address with an optional port'],
    [{ EMAIL_VERIFY_HELO_DOMAIN: 'not a domain' }, 'must be a domain name such as verify.example.com'],
  ])('refuses %j', (env, message) => {
    const parsed = parse(env);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toBe(message);
  });
});
