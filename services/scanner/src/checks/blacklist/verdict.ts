import type { CheckResult } from '../types.js';
import type { IpResult, Site } from './tally.js';

export interface BlacklistVerdict {
  status: CheckResult['status'];
  value: string | null;
  message: string;
  error: string | null;
  recommendation: string | null;
}

/** Why no verdict can be given: every list query failed, or no address could be looked up. */
export interface BlacklistFailure {
  everyQueryFailed: boolean;
  hostLookupFailedEntirely: boolean;
}

/** Listed anywhere is an error; nothing answered is unknown; otherwise clean on the lists that answered. */
export function blacklistVerdict(sites: readonly Site[], failure: BlacklistFailure): BlacklistVerdict {
  const listedSites = sites.filter((site) => site.status === 'listed');
  const listingCount = listedSites.length;
  if (listingCount > 0) {
    const names = listedSites.map((site) => site.name);
    return {
      status: 'error',
      value: `Listed on ${listingCount} of ${sites.length} lists`,
      message: `Listed on ${listingCount} block list${listingCount === 1 ? '' : 's'}: ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}.`,
      error: null,
      recommendation: 'Fix the cause of the listing (compromised account, open relay, purchased lists), then request removal from each list using its removal link.',
    };
  }
  if (failure.everyQueryFailed || failure.hostLookupFailedEntirely) {
    // No address could be collected because DNS failed: the IP lists were never asked.
    const error = failure.everyQueryFailed ? 'Every block list query failed or was refused.' : 'The mail host lookups failed.';
    return {
      status: 'unknown',
      value: null,
      message: `The blacklist status could not be determined: ${error.charAt(0).toLowerCase()}${error.slice(1)}`,
      error,
      recommendation: null,
    };
  }
  const unknownSites = sites.filter((site) => site.status === 'unknown').length;
  return {
    status: 'valid',
    value: `Clean on ${sites.length - unknownSites} of ${sites.length} lists`,
    message:
      unknownSites > 0
        ? `Not listed on any block list that answered (${unknownSites} of ${sites.length} could not be checked).`
        : `Not listed on any of the ${sites.length} block lists checked.`,
    error: null,
    recommendation: null,
  };
}

/** Each address with its one-line description. */
export function describeIpResults(ipResults: ReadonlyMap<string, IpResult>): IpResult[] {
  return [...ipResults.values()].map((result) => ({
    ...result,
    description: result.clean
      ? result.unknownServices.length > 0
        ? `Not listed on the lists that answered; ${result.unknownServices.length} could not be checked.`
        : 'Not listed on any checked list.'
      : `Listed on ${result.listedServices.map((s) => s.service).join(', ')}.`,
  }));
}
