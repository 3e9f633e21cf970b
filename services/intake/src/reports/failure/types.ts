/** RFC 6591 §3.2.1 Auth-Failure values; others are kept as reported. */
export type AuthFailureType = 'dmarc' | 'spf' | 'dkim' | 'adsp' | 'bodyhash' | 'revoked' | 'signature' | (string & {});

/**
 * One DMARC failure report, redacted: every address has its local part replaced (`***@example.com`),
 * the original message's Subject and body are gone, and its Message-ID is only a SHA-256.
 */
export interface FailureReport {
  /** RFC 6591 ARF (multipart/report) or a receiver's plain-text report. */
  format: 'arf' | 'plain-text';
  authFailure: AuthFailureType | null;
  reportedDomain: string | null;
  sourceIp: string | null;
  arrivalDate: Date | null;
  originalMailFrom: string | null;
  originalRcptTo: string[];
  /** The reporter's own evaluation, addresses redacted. */
  authenticationResults: string[];
  dkim: { domain: string | null; selector: string | null; identity: string | null };
  spfDns: string[];
  deliveryResult: string | null;
  /** Lower-cased results as reported (`pass`, `fail`, `reject`...). */
  results: { spf: string | null; dkim: string | null; dmarc: string | null };
  /** `pass` when that identity aligned with the From domain (RFC 7489 §3.1), `fail` when not. */
  alignment: { spf: string | null; dkim: string | null };
  reportedUris: string[];
  original: { fromDomain: string | null; returnPathDomain: string | null; messageIdSha256: string | null };
}
