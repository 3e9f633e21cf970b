import type { Finding } from '@sendwell/contracts';
import type { RefusedTarget } from '../../outbound-targets.js';

/** The certificate the server presented after STARTTLS. */
export interface SmtpCertificate {
  subject: string | null;
  issuer: string | null;
  altNames: string[];
  validFrom: string | null;
  validTo: string | null;
  daysRemaining: number | null;
  /** The certificate names the MX host (tls.checkServerIdentity, RFC 6125 §6). */
  nameMatches: boolean;
  /** The chain leads to a trusted root (OpenSSL's verdict; dates and the name are judged apart). */
  trusted: boolean;
  /** OpenSSL's reason when the chain is not trusted, e.g. DEPTH_ZERO_SELF_SIGNED_CERT. */
  authorizationError: string | null;
}

/** Where the conversation stopped when it failed. */
export type SmtpStage = 'connect' | 'greeting' | 'ehlo' | 'starttls' | 'tls';

/** One MX host: its addresses, the probe of its first vetted address, and its findings. */
export interface SmtpHostResult {
  exchange: string;
  preference: number;
  /** The address connected to (the first vetted one, IPv4 first). */
  ip: string | null;
  noAddress: boolean;
  refused: RefusedTarget[];
  dnsError: string | null;
  port: number;
  /** The 220 reply arrived. */
  greeted: boolean;
  /** The greeting's first line, with its code. */
  banner: string | null;
  /** From the TCP connect event to the complete greeting; null when the scanner's own lag made it unreliable. */
  bannerMs: number | null;
  /** The greeting's time when the scanner's own event-loop lag could explain it (src/timing/): shown, not judged. */
  unreliableBannerTiming: { measuredMs: number; lagMs: number } | null;
  /** The first word after "220": the host name the server calls itself. */
  greetingName: string | null;
  /** null until checked (or when the check could not be made). */
  greetingNameMatches: boolean | null;
  /** EHLO keywords with their parameters, e.g. "SIZE 10240000". */
  extensions: string[];
  starttls: boolean;
  tlsVersion: string | null;
  cipher: string | null;
  certificate: SmtpCertificate | null;
  error: string | null;
  errorStage: SmtpStage | null;
  findings: Finding[];
}

export function emptyHost(exchange: string, preference: number, port: number): SmtpHostResult {
  return {
    exchange,
    preference,
    ip: null,
    noAddress: false,
    refused: [],
    dnsError: null,
    port,
    greeted: false,
    banner: null,
    bannerMs: null,
    unreliableBannerTiming: null,
    greetingName: null,
    greetingNameMatches: null,
    extensions: [],
    starttls: false,
    tlsVersion: null,
    cipher: null,
    certificate: null,
    error: null,
    errorStage: null,
    findings: [],
  };
}

