import type { DnsFixtureRecords } from '@sendwell/testing';

/**
 * Domains the fixture DNS server answers for, so scans and quick checks finish in a moment and the
 * results are known. Everything else (blacklist zones included) answers NXDOMAIN: not listed.
 */
export const HEALTHY_DOMAIN = 'healthy-shop.test';
export const BROKEN_DOMAIN = 'broken-shop.test';

const soa = (zone: string) => ({ mname: `ns1.${zone}`, rname: `hostmaster.${zone}`, serial: 2026010101 });

export const fixtureRecords: Record<string, DnsFixtureRecords> = {
  [HEALTHY_DOMAIN]: {
    A: ['127.0.0.1'],
    MX: [{ priority: 10, exchange: `mail.${HEALTHY_DOMAIN}` }],
    NS: [`ns1.${HEALTHY_DOMAIN}`],
    SOA: soa(HEALTHY_DOMAIN),
    TXT: ['v=spf1 ip4:127.0.0.1 -all'],
  },
  [`mail.${HEALTHY_DOMAIN}`]: { A: ['127.0.0.1'] },
  [`ns1.${HEALTHY_DOMAIN}`]: { A: ['127.0.0.1'] },
  [`_dmarc.${HEALTHY_DOMAIN}`]: { TXT: [`v=DMARC1; p=reject; rua=mailto:dmarc@${HEALTHY_DOMAIN}`] },
  [`default._domainkey.${HEALTHY_DOMAIN}`]: {
    TXT: [
      'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu9FhQ2Lx0LLZ7bqOtnVh2Nw1N0d0iN6C0tB1m7m9kZlM3j2R6fN9mYkQ1bHn0Gx2W1cTqk3h2h0oQ0kKfE3V7wQk2yT3r8X1pN2m5y0c9m4p8dK3rJ0bX6yT1wF7eS9aC2nL5hV4qZ8uR3tY6oI1pA0sD9fG2hJ4kL7zX5cV8bN1mQ3wE6rT9yU2iO5pA8sD1fG4hJ7kL0zX3cV6bN9mQ2wE5rT8yU1iO4pA7sD0fG3hJ6kL9zX2cV5bN8mQ1wE4rT7yU0iO3pA6sD9fG2hJ5kL8zX1cV4bN7mQ0wE3rT6yU9iO2pA5sD8fG1hJ4kL7zX0cV3bN6mQIDAQAB',
    ],
  },
  [BROKEN_DOMAIN]: { A: ['127.0.0.1'], NS: [`ns1.${HEALTHY_DOMAIN}`], SOA: soa(BROKEN_DOMAIN) },
};
