import { DnsServerError, DnsTimeoutError, type RecordData, type RecordType, type Resolver } from '../../../dns/types.js';
import { isSpfRecord } from './parse.js';

/** A DNS failure that makes the SPF result temperror (RFC 7208 §2.6.6, §4.4): timeouts, SERVFAIL, REFUSED. */
export class SpfTempError extends Error {
  override name = 'SpfTempError';
}

export interface SpfDnsAnswer<T extends RecordType> {
  answers: Array<RecordData[T]>;
  /** NXDOMAIN, or NOERROR with no answers: a "void lookup" (§4.6.4). */
  void: boolean;
  nxdomain: boolean;
}

/** Whether a name can be asked at all: labels of 1..63 octets, at most 253 characters. */
export function isQueryableName(name: string): boolean {
  if (name.length === 0 || name.length > 253) return false;
  let start = 0;
  for (;;) {
    const dot = name.indexOf('.', start);
    const end = dot < 0 ? name.length : dot;
    const length = end - start;
    if (length === 0 || length > 63) return false;
    if (dot < 0) return true;
    start = dot + 1;
  }
}

/** `shared`: the name is outside the evaluated domain, so its answer may come from the shared cache. */
export async function spfQuery<T extends RecordType>(resolver: Resolver, name: string, type: T, shared = false): Promise<SpfDnsAnswer<T>> {
  if (!isQueryableName(name)) return { answers: [], void: true, nxdomain: true };
  try {
    const response = await resolver.query(name, type, shared ? { shared } : undefined);
    if (response.rcode === 'NXDOMAIN') return { answers: [], void: true, nxdomain: true };
    if (response.rcode !== 'NOERROR') throw new SpfTempError(`DNS ${type} ${name} failed with ${response.rcode}`);
    return { answers: response.answers, void: response.answers.length === 0, nxdomain: false };
  } catch (error) {
    if (error instanceof DnsTimeoutError) throw new SpfTempError(`DNS ${type} ${name} timed out`);
    if (error instanceof DnsServerError) throw new SpfTempError(`DNS ${type} ${name} failed with ${error.rcode}`);
    // A name DNS cannot carry (e.g. a label over 63 bytes once encoded) has no records.
    if (error instanceof RangeError) return { answers: [], void: true, nxdomain: true };
    throw error;
  }
}

export type SpfRecordLookup =
  | { kind: 'found'; text: string }
  | { kind: 'none'; nxdomain: boolean }
  | { kind: 'multiple'; records: string[] };

/** The SPF record of a domain (§4.4, §4.5): the TXT strings starting with "v=spf1". Throws SpfTempError. */
export async function fetchSpfRecord(resolver: Resolver, domain: string, shared = false): Promise<SpfRecordLookup> {
  const { answers, nxdomain } = await spfQuery(resolver, domain, 'TXT', shared);
  let found: string | null = null;
  let several: string[] | null = null;
  for (const txt of answers) {
    if (!isSpfRecord(txt)) continue;
    if (found === null) found = txt;
    else (several ??= [found]).push(txt);
  }
  if (several) return { kind: 'multiple', records: several };
  if (found === null) return { kind: 'none', nxdomain };
  return { kind: 'found', text: found };
}
