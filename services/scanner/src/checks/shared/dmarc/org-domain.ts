import { getDomain, getPublicSuffix } from 'tldts';

/**
 * The Organizational Domain (RFC 7489 §3.2): the public suffix plus one label, from the Public
 * Suffix List. The private section counts too (`foo.github.io` is its own organisation), as in
 * OpenDMARC: a shared hosting suffix's owner must not set policy for its customers. A name that is
 * itself a public suffix (or not a hostname) is its own organisational domain.
 */
export function organizationalDomain(domain: string): string {
  return getDomain(domain, { allowPrivateDomains: true }) ?? domain;
}

/** Whether the name is itself on the Public Suffix List (ICANN or private section), e.g. `co.uk` or `github.io`. */
export function isPublicSuffix(domain: string): boolean {
  return getPublicSuffix(domain, { allowPrivateDomains: true }) === domain && getDomain(domain, { allowPrivateDomains: true }) === null;
}
