import type { Finding } from '@sendwell/contracts';
import type { RefusedTarget } from '../outbound-targets.js';

/** What one host name (the domain or www) answered, filled in step by step, and its findings. */
export interface HostResult {
  host: string;
  /** 'domain' or 'www'. */
  role: 'domain' | 'www';
  address: string | null;
  port: number;
  reachable: boolean;
  /** The handshake error's code, e.g. ECONNREFUSED. */
  errorCode: string | null;
  /** No A/AAAA record: there is no web host to check. */
  noAddress: boolean;
  /** Addresses (or the name itself) the outbound guard refused: never connected to. */
  refused: RefusedTarget[];
  dnsError: string | null;
  error: string | null;
  authorized: boolean;
  authorizationError: string | null;
  hostnameMatches: boolean | null;
  protocol: string | null;
  cipher: string | null;
  issuer: string | null;
  subject: string | null;
  altNames: string[];
  validFrom: string | null;
  expiresAt: string | null;
  daysRemaining: number | null;
  keyType: string | null;
  keyBits: number | null;
  serialNumber: string | null;
  fingerprint256: string | null;
  findings: Finding[];
}

export function emptyHost(host: string, role: HostResult['role'], port: number): HostResult {
  return {
    host,
    role,
    address: null,
    port,
    reachable: false,
    errorCode: null,
    noAddress: false,
    refused: [],
    dnsError: null,
    error: null,
    authorized: false,
    authorizationError: null,
    hostnameMatches: null,
    protocol: null,
    cipher: null,
    issuer: null,
    subject: null,
    altNames: [],
    validFrom: null,
    expiresAt: null,
    daysRemaining: null,
    keyType: null,
    keyBits: null,
    serialNumber: null,
    fingerprint256: null,
    findings: [],
  };
}
