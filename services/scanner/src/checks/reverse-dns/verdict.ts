import type { Finding, ReverseDnsDetails } from '@sendwell/contracts';
import { mostSevereRecommendation } from '../recommendation.js';
import type { CheckResult } from '../types.js';
import type { AddressResult } from './fcrdns.js';
import { MAX_ADDRESSES, type SendingAddresses } from './sending-addresses.js';

type ReverseDnsResult = CheckResult<ReverseDnsDetails>;

/** No sending address: unknown when lookups failed, else missing. */
export function noAddressVerdict(domain: string, collected: SendingAddresses): ReverseDnsResult {
  if (collected.errors.length > 0) {
    return {
      type: 'reverse_dns',
      status: 'unknown',
      value: null,
      message: `The MX and SPF records of ${domain} could not be looked up, so no sending address was checked.`,
      recommendation: null,
      details: { addresses: [], error: collected.errors[0] ?? null, findings: [] },
    };
  }
  const finding: Finding = {
    code: 'RDNS_NO_SENDING_ADDRESS',
    severity: 'info',
    message: `${domain} names no sending address: no MX host with an address and no single address (ip4, ip6, a, mx) in its SPF record.`,
    rfc: 'RFC 1912 §2.1',
  };
  return { type: 'reverse_dns', status: 'missing', value: null, message: finding.message, recommendation: null, details: { addresses: [], findings: [finding] } };
}

/** Warnings (missing or unconfirmed PTR) decide; only when no address could be checked is it unknown. */
export function reverseDnsVerdict(domain: string, collected: SendingAddresses, results: readonly AddressResult[], findings: Finding[]): ReverseDnsResult {
  if (collected.skipped > 0) {
    findings.push({
      code: 'RDNS_ADDRESSES_LIMITED',
      severity: 'info',
      message: `${domain} names ${collected.skipped + MAX_ADDRESSES} sending addresses; the first ${MAX_ADDRESSES} (MX hosts first, then the SPF record's) were checked.`,
      rfc: 'RFC 1912 §2.1',
    });
  }
  const details = { addresses: results.map(addressDetails), findings };
  const checked = results.filter((result) => result.outcome !== 'unknown');
  const confirmed = results.filter((result) => result.outcome === 'confirmed');
  if (checked.length === 0) {
    return {
      type: 'reverse_dns',
      status: 'unknown',
      value: null,
      message: `The reverse DNS of the ${results.length === 1 ? 'sending address' : `${results.length} sending addresses`} of ${domain} could not be looked up.`,
      recommendation: null,
      details,
    };
  }
  const value = `${confirmed.length} of ${results.length} confirmed`;
  const top = findings.find((finding) => finding.severity === 'error') ?? findings.find((finding) => finding.severity === 'warning');
  if (top) {
    const failing = results.length - confirmed.length - (results.length - checked.length);
    return {
      type: 'reverse_dns',
      status: 'warning',
      value,
      message: failing > 1 ? `${failing} of ${results.length} sending addresses lack forward-confirmed reverse DNS; first: ${top.message}` : top.message,
      recommendation: top.recommendation ?? mostSevereRecommendation(findings),
      details,
    };
  }
  const unchecked = results.length - checked.length;
  return {
    type: 'reverse_dns',
    status: 'valid',
    value,
    message:
      unchecked > 0
        ? `Every sending address that could be checked has forward-confirmed reverse DNS (${unchecked} of ${results.length} could not be looked up).`
        : results.length === 1
          ? `The sending address ${results[0]?.ip} has forward-confirmed reverse DNS (${results[0]?.confirmedName}).`
          : `All ${results.length} sending addresses have forward-confirmed reverse DNS.`,
    recommendation: null,
    details,
  };
}

function addressDetails(result: AddressResult): NonNullable<ReverseDnsDetails['addresses']>[number] {
  return {
    ip: result.ip,
    source: result.source,
    ptr: result.ptr,
    forwardConfirmed: result.forwardConfirmed,
    confirmedName: result.confirmedName,
    generic: result.generic,
    private: result.private,
    error: result.error,
  };
}
