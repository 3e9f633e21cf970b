import { DnsTimeoutError, type Resolver } from '../../dns/types.js';
import { classifyDnsblAnswer } from './dnsbl.js';
import type { DnsblZone } from './zones.js';

/** A list's answer to its own test points: healthy, or degraded with the reason in words. */
export type ProbeResult = { healthy: true } | { healthy: false; reason: string };

/**
 * The RFC 5782 §5 test points of a list: an IP list must list 127.0.0.2 and must not list 127.0.0.1;
 * a domain list must list "TEST" (or the entry its operator documents) and must not list "INVALID".
 * `listed` and `notListed` are the names asked, in the query zone (key included); the texts are for messages.
 */
export function testPoints(zone: DnsblZone): { listed: string; notListed: string; listedText: string; notListedText: string } {
  if (zone.kind === 'ip') {
    return { listed: `2.0.0.127.${zone.queryZone}`, notListed: `1.0.0.127.${zone.queryZone}`, listedText: '127.0.0.2', notListedText: '127.0.0.1' };
  }
  const test = zone.testDomain ?? 'test';
  return { listed: `${test}.${zone.queryZone}`, notListed: `invalid.${zone.queryZone}`, listedText: test, notListedText: 'invalid' };
}

type Answer = { kind: 'answers'; codes: string[] } | { kind: 'nxdomain' } | { kind: 'failed'; text: string };

async function ask(resolver: Resolver, name: string): Promise<Answer> {
  try {
    const response = await resolver.query(name, 'A');
    if (response.rcode === 'NXDOMAIN' || (response.rcode === 'NOERROR' && response.answers.length === 0)) return { kind: 'nxdomain' };
    if (response.rcode !== 'NOERROR') return { kind: 'failed', text: `answered ${response.rcode}` };
    return { kind: 'answers', codes: response.answers };
  } catch (error) {
    if (error instanceof DnsTimeoutError) return { kind: 'failed', text: 'did not answer in time' };
    return { kind: 'failed', text: 'could not be asked' };
  }
}

/**
 * Asks a list about its test points. It is degraded when it does not answer, refuses us, fails to
 * list the entry that must be listed, or lists the one that must not be (a list that lists
 * everything: a lapsed zone with a wildcard, a resolver rewriting NXDOMAIN), so that scans read its
 * answers as unknown instead of reporting every customer as listed, or as clean.
 */
export async function probeBlocklist(resolver: Resolver, zone: DnsblZone): Promise<ProbeResult> {
  const points = testPoints(zone);
  const [listed, notListed] = await Promise.all([ask(resolver, points.listed), ask(resolver, points.notListed)]);

  if (notListed.kind === 'answers') {
    const verdict = classifyDnsblAnswer(zone, notListed.codes);
    if (verdict.status === 'listed' || verdict.status === 'refused') {
      const what = verdict.status === 'listed' ? 'lists everything' : 'answers out of its range';
      return { healthy: false, reason: `${what}: it answers ${notListed.codes.join(', ')} for ${points.notListedText}, which no list may list` };
    }
  }
  if (listed.kind === 'failed') return { healthy: false, reason: `${listed.text} for its test point ${points.listedText}` };
  if (listed.kind === 'nxdomain') return { healthy: false, reason: `does not list its test point ${points.listedText}` };
  const verdict = classifyDnsblAnswer(zone, listed.codes);
  if (verdict.status === 'refused') {
    return { healthy: false, reason: `refuses the scanner's queries: it answers ${listed.codes.join(', ')} for its test point ${points.listedText}` };
  }
  // Any answer in 127.0.0.0/8 that is not a refusal shows a list that is alive and knows its test
  // point, even when the code (URIBL's 127.0.0.14, "on every list") is not one of its listing codes.
  return { healthy: true };
}
