/** The result types of RFC 8460 §4.3; senders may add others, which are kept as reported. */
export const KNOWN_TLS_RESULT_TYPES = [
  'starttls-not-supported',
  'certificate-host-mismatch',
  'certificate-expired',
  'certificate-not-trusted',
  'validation-failure',
  'tlsa-invalid',
  'dnssec-invalid',
  'dane-required',
  'sts-policy-fetch-error',
  'sts-policy-invalid',
  'sts-webpki-invalid',
] as const;

export type KnownTlsResultType = (typeof KNOWN_TLS_RESULT_TYPES)[number];
/** `string & {}` keeps editor completion for the known types while accepting any other. */
export type TlsResultType = KnownTlsResultType | (string & {});

/** RFC 8460 §4.4 policy-type. */
export type TlsPolicyType = 'tlsa' | 'sts' | 'no-policy-found';

export interface TlsFailure {
  resultType: TlsResultType;
  sendingMtaIp: string | null;
  receivingMx: string | null;
  receivingHelo: string | null;
  receivingIp: string | null;
  count: number;
  additionalInformation: string | null;
  reasonCode: string | null;
}

export interface TlsPolicyResult {
  type: TlsPolicyType;
  /** Lower-cased, without a trailing dot. */
  domain: string;
  strings: string[];
  mxHosts: string[];
  successful: number;
  failed: number;
  failures: TlsFailure[];
}

/** One RFC 8460 report, normalised: what the sender saw delivering to the policy domains. */
export interface TlsReport {
  organization: string;
  contact: string | null;
  reportId: string;
  period: { start: Date; end: Date };
  policies: TlsPolicyResult[];
}
