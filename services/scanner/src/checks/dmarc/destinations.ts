import type { Finding } from '@sendwell/contracts';
import { DnsServerError, DnsTimeoutError } from '../../dns/types.js';
import type { CheckContext } from '../types.js';
import { organizationalDomain } from '../shared/dmarc/org-domain.js';
import { startsWithDmarcVersion, type DmarcUri } from '../shared/dmarc/record.js';

/** External report destinations must agree to receive reports (RFC 7489 §7.1), or receivers send none. */

export interface DmarcReportUri extends DmarcUri {
  /** The destination's organisational domain differs from the policy domain's (§7.1). */
  external: boolean;
  /** For external mailto destinations: whether the destination accepts the reports; null if DNS failed. */
  verified?: boolean | null;
  /** The name queried to verify an external destination. */
  verificationName?: string;
}

/** Marks each destination external or not, and asks every external one whether it accepts the reports. */
export async function checkDestinations(ctx: CheckContext, uris: DmarcUri[], policyDomain: string): Promise<DmarcReportUri[]> {
  const policyOrg = organizationalDomain(policyDomain);
  return Promise.all(
    uris.map(async (uri): Promise<DmarcReportUri> => {
      if (uri.domain === null || organizationalDomain(uri.domain) === policyOrg) return { ...uri, external: false };
      const verificationName = `${policyDomain}._report._dmarc.${uri.domain}`;
      return { ...uri, external: true, verified: await verifyDestination(ctx, verificationName), verificationName };
    }),
  );
}

/** §7.1: `{policyDomain}._report._dmarc.{destination}` must hold a record starting with v=DMARC1. */
async function verifyDestination(ctx: CheckContext, name: string): Promise<boolean | null> {
  try {
    const txt = await ctx.resolver.lookup(name, 'TXT');
    return txt.some(startsWithDmarcVersion);
  } catch (error) {
    if (error instanceof DnsTimeoutError || error instanceof DnsServerError) return null;
    // The name is longer than DNS allows: no receiver can verify it either.
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/** A finding per external destination that refused the reports or could not be asked, in the record's order. */
export function destinationFindings(uris: DmarcReportUri[], policyDomain: string, tag: 'rua' | 'ruf'): Finding[] {
  const findings: Finding[] = [];
  for (const uri of uris) {
    if (!uri.external || uri.domain === null || uri.verificationName === undefined) continue;
    const { verified, verificationName } = uri;
    if (verified === false) {
      findings.push({
        code: 'DMARC_EXTERNAL_DEST_UNVERIFIED',
        severity: 'warning',
        message: `${uri.domain} has not authorised reports for ${policyDomain} (no v=DMARC1 record at ${verificationName}), so receivers will not send ${tag} reports to ${uri.address ?? uri.uri}.`,
        rfc: 'RFC 7489 §7.1',
        recommendation: `Ask the operator of ${uri.domain} to publish the TXT record "v=DMARC1" at ${verificationName} (report services do this when you register your domain), or use an address at your own domain.`,
        tag,
        destination: uri.domain,
      });
    } else if (verified === null) {
      findings.push({
        code: 'DMARC_EXTERNAL_DEST_UNKNOWN',
        severity: 'info',
        message: `Could not check whether ${uri.domain} accepts reports for ${policyDomain}: the DNS lookup of ${verificationName} failed.`,
        rfc: 'RFC 7489 §7.1',
        tag,
        destination: uri.domain,
      });
    }
  }
  return findings;
}
