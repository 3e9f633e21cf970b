import { planMxHosts as planFromRecords, type MxHostPlan } from '@sendwell/smtp-client';
import { DnsServerError, DnsTimeoutError, type MxAnswer, type Resolver } from '../../../dns/types.js';

/** MX hosts probed per scan, lowest preference first: a domain with many cannot make the check slow. */
export const MAX_MX_HOSTS = 5;

/** The domain's MX hosts as @sendwell/smtp-client plans them (null MX "." left out), or why the lookup failed. */
export interface MxPlan extends MxHostPlan {
  /** Distinct exchanges by preference, at most the hosts asked for (MAX_MX_HOSTS unless told). */
  hosts: MxAnswer[];
  /** The MX lookup failed (timeout, SERVFAIL …). */
  error: string | null;
}

/** The domain's MX hosts through the scan's resolver (the SMTP, DANE, DNSSEC and blacklist checks), at most `maxHosts`. */
export async function planMxHosts(resolver: Resolver, domain: string, maxHosts = MAX_MX_HOSTS): Promise<MxPlan> {
  let answers: MxAnswer[];
  try {
    answers = await resolver.lookup(domain, 'MX');
  } catch (error) {
    if (error instanceof DnsTimeoutError || error instanceof DnsServerError) return { hosts: [], skipped: 0, nullMx: false, error: error.message };
    throw error;
  }
  return { ...planFromRecords(answers, maxHosts), error: null };
}
