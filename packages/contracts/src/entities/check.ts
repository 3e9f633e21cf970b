import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import { scanIdSchema } from './scan.js';
import { checkTypes } from '../check-types.js';

export { checkTypes, coreCheckTypes, isCoreCheckType, mailCheckTypes, type CoreCheckType, type MailCheckType } from '../check-types.js';
export const checkTypeSchema = z.enum(checkTypes);
export type CheckType = z.infer<typeof checkTypeSchema>;

/**
 * What a domain is for (RFC 7505 null MX; a parked domain sends and receives no mail): a `null_mx` or
 * `parked` domain is judged as one that refuses mail, not as a broken mail domain.
 */
export const domainProfiles = ['mail', 'null_mx', 'parked'] as const;
export const domainProfileSchema = z.enum(domainProfiles);
export type DomainProfile = z.infer<typeof domainProfileSchema>;

export const checkStatuses = ['valid', 'success', 'warning', 'error', 'missing', 'unknown'] as const;
export const checkStatusSchema = z.enum(checkStatuses);
export type CheckStatus = z.infer<typeof checkStatusSchema>;

/**
 * One concrete problem a check found, e.g. `SPF_TOO_MANY_LOOKUPS` with `rfc: 'RFC 7208 §4.6.4'`.
 * Codes are stable so guides, alerts and reports can key on them; messages are for people.
 */
export const findingSeverities = ['error', 'warning', 'info'] as const;
export const findingSeveritySchema = z.enum(findingSeverities);
export type FindingSeverity = z.infer<typeof findingSeveritySchema>;
export const findingSchema = z.looseObject({
  code: z.string().regex(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/, 'Finding codes are UPPER_SNAKE_CASE'),
  severity: findingSeveritySchema,
  message: z.string(),
  /** The clause the finding rests on, e.g. 'RFC 7489 §6.3'. */
  rfc: z.string().optional(),
  recommendation: z.string().optional(),
});
export type Finding = z.infer<typeof findingSchema>;

/*
 * Details per check type (part 2 §3). Every schema is loose and every field optional: the scanner adds
 * fields over time and old rows lack new ones, so readers must cope with absence.
 */
const base = { findings: z.array(findingSchema).optional() };

export const spfDetailsSchema = z.looseObject({
  ...base,
  issue: z.string().nullable().optional(),
  record: z.string().nullable().optional(),
  /** DNS-querying mechanisms counted against the limit of 10 (RFC 7208 §4.6.4). */
  lookupCount: z.number().int().nonnegative().optional(),
  /** The addresses and networks the record authorises, each with the domain and term it came from. */
  flattenedIps: z.array(z.looseObject({ ip: z.string(), source: z.string().optional() })).optional(),
});
export type SpfDetails = z.infer<typeof spfDetailsSchema>;

export const dkimRecordSchema = z.looseObject({ selector: z.string(), record: z.string() });
export const dkimDetailsSchema = z.looseObject({
  ...base,
  records: z.array(dkimRecordSchema).optional(),
  selectorsChecked: z.array(z.string()).optional(),
});
export type DkimDetails = z.infer<typeof dkimDetailsSchema>;

export const dmarcDetailsSchema = z.looseObject({
  ...base,
  policy: z.string().nullable().optional(),
  record: z.string().nullable().optional(),
  pct: z.number().int().min(0).max(100).optional(),
});
export type DmarcDetails = z.infer<typeof dmarcDetailsSchema>;

export const sslDetailsSchema = z.looseObject({
  ...base,
  issuer: z.string().nullable().optional(),
  expiresAt: isoDateTime.nullable().optional(),
  daysRemaining: z.number().int().optional(),
});
export type SslDetails = z.infer<typeof sslDetailsSchema>;

export const blacklistSiteStatuses = ['clean', 'listed', 'unknown'] as const;
export const blacklistSiteSchema = z.looseObject({
  name: z.string(),
  status: z.enum(blacklistSiteStatuses),
  url: z.string().nullable().optional(),
  lookupUrl: z.string().nullable().optional(),
  removalUrl: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
});
export type BlacklistSite = z.infer<typeof blacklistSiteSchema>;
export const ipResultSchema = z.looseObject({
  ip: z.string(),
  clean: z.boolean(),
  description: z.string().nullable().optional(),
  source: z.string().nullable().optional(),
  listedServices: z.array(z.looseObject({ service: z.string(), removalUrl: z.string().nullable().optional() })).optional(),
});
export const blacklistDetailsSchema = z.looseObject({
  ...base,
  sites: z.array(blacklistSiteSchema).optional(),
  totalIpsChecked: z.number().int().nonnegative().optional(),
  cleanIps: z.number().int().nonnegative().optional(),
  listedIpsCount: z.number().int().nonnegative().optional(),
  allIpResults: z.array(ipResultSchema).optional(),
  error: z.string().nullable().optional(),
  recommendation: z.string().nullable().optional(),
});
export type BlacklistDetails = z.infer<typeof blacklistDetailsSchema>;

export const mxRecordSchema = z.looseObject({
  exchange: z.string(),
  priority: z.number().int().nonnegative(),
  ips: z.array(z.string()).optional(),
});
export type MxRecord = z.infer<typeof mxRecordSchema>;
export const dnsDetailsSchema = z.looseObject({
  ...base,
  aRecords: z.array(z.string()).optional(),
  mxRecords: z.array(mxRecordSchema).optional(),
  spfRecord: z.string().nullable().optional(),
  spfIps: z.array(z.string()).optional(),
  dmarcRecord: z.string().nullable().optional(),
  /** Slowest authoritative answer seen, which the performance label is graded on. */
  responseTimeMs: z.number().nonnegative().optional(),
});
export type DnsDetails = z.infer<typeof dnsDetailsSchema>;

/** MTA-STS (RFC 8461): the `_mta-sts` TXT record and the policy served over HTTPS. */
export const mtaStsPolicySchema = z.looseObject({
  version: z.string().nullable().optional(),
  mode: z.string().nullable().optional(),
  maxAge: z.number().int().nonnegative().nullable().optional(),
  mx: z.array(z.string()).optional(),
});
export const mtaStsDetailsSchema = z.looseObject({
  ...base,
  record: z.string().nullable().optional(),
  /** Every `v=STSv1` TXT record at `_mta-sts.{domain}` (more than one voids MTA-STS). */
  records: z.array(z.string()).optional(),
  /** The record's `id=`; a change tells senders to fetch the policy again (RFC 8461 §3.1). */
  id: z.string().nullable().optional(),
  policyUrl: z.string().nullable().optional(),
  /** How the policy fetch went: the address connected to, the HTTP answer, or why there was none. */
  policyFetch: z
    .looseObject({
      address: z.string().nullable().optional(),
      httpStatus: z.number().int().nullable().optional(),
      contentType: z.string().nullable().optional(),
      error: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  policy: mtaStsPolicySchema.nullable().optional(),
  /** Each MX host and whether a policy `mx:` pattern covers it (RFC 8461 §4.1), with the pattern that does. */
  mxCoverage: z.array(z.looseObject({ exchange: z.string(), covered: z.boolean(), pattern: z.string().nullable().optional() })).optional(),
});
export type MtaStsDetails = z.infer<typeof mtaStsDetailsSchema>;

/** SMTP TLS reporting (RFC 8460): the `_smtp._tls` TXT record and its report destinations. */
export const tlsRptDetailsSchema = z.looseObject({
  ...base,
  record: z.string().nullable().optional(),
  /** Every `v=TLSRPTv1` TXT record at `_smtp._tls.{domain}` (more than one voids TLS-RPT). */
  records: z.array(z.string()).optional(),
  rua: z.array(z.string()).optional(),
});
export type TlsRptDetails = z.infer<typeof tlsRptDetailsSchema>;

/** One MX address as the SMTP transport check found it on port 25. */
export const smtpHostSchema = z.looseObject({
  exchange: z.string(),
  /** The MX record's preference. */
  preference: z.number().int().nonnegative().optional(),
  ip: z.string().nullable().optional(),
  port: z.number().int().optional(),
  /** The 220 greeting, and how long it took after the connection opened. */
  banner: z.string().nullable().optional(),
  bannerMs: z.number().nonnegative().nullable().optional(),
  /** The host name the greeting gives (RFC 5321 §4.2), and whether its A/AAAA records include `ip`. */
  greetingName: z.string().nullable().optional(),
  greetingNameMatches: z.boolean().nullable().optional(),
  /** EHLO extensions with their parameters, e.g. "SIZE 10240000" (after STARTTLS when it succeeded). */
  extensions: z.array(z.string()).optional(),
  starttls: z.boolean().optional(),
  tlsVersion: z.string().nullable().optional(),
  cipher: z.string().nullable().optional(),
  certificate: z
    .looseObject({
      subject: z.string().nullable().optional(),
      issuer: z.string().nullable().optional(),
      altNames: z.array(z.string()).optional(),
      validFrom: isoDateTime.nullable().optional(),
      validTo: isoDateTime.nullable().optional(),
      daysRemaining: z.number().int().nullable().optional(),
      nameMatches: z.boolean().optional(),
      trusted: z.boolean().optional(),
      /** Why the chain is not trusted (OpenSSL's code, e.g. DEPTH_ZERO_SELF_SIGNED_CERT). */
      authorizationError: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  /** Addresses (or the name) the outbound guard refused to connect to. */
  refused: z.array(z.string()).optional(),
  error: z.string().nullable().optional(),
});
export type SmtpHost = z.infer<typeof smtpHostSchema>;
export const smtpDetailsSchema = z.looseObject({ ...base, hosts: z.array(smtpHostSchema).optional() });
export type SmtpDetails = z.infer<typeof smtpDetailsSchema>;

/** Forward-confirmed reverse DNS of each sending address: its PTR names and whether one resolves back. */
export const reverseDnsAddressSchema = z.looseObject({
  ip: z.string(),
  /** Where the address came from, e.g. "MX mx1.example.com" or "SPF ip4". */
  source: z.string().optional(),
  ptr: z.array(z.string()).optional(),
  forwardConfirmed: z.boolean().optional(),
  /** The PTR name that resolves back to `ip`, when one does. */
  confirmedName: z.string().nullable().optional(),
  /** A PTR name that looks assigned to a dynamic or consumer address (digits of the address, "dsl", "pool" …). */
  generic: z.boolean().optional(),
  /** A private or otherwise non-public address (looked up, never connected to). */
  private: z.boolean().optional(),
  /** Why the address could not be judged (a DNS timeout or server failure). */
  error: z.string().nullable().optional(),
});
export const reverseDnsDetailsSchema = z.looseObject({ ...base, addresses: z.array(reverseDnsAddressSchema).optional() });
export type ReverseDnsDetails = z.infer<typeof reverseDnsDetailsSchema>;

/**
 * DANE for SMTP (RFC 7672): each MX host's TLSA records at `_25._tcp.{exchange}` (RFC 6698) and
 * whether one matches the certificate chain the host presents after STARTTLS.
 */
export const daneDetailsSchema = z.looseObject({
  ...base,
  hosts: z
    .array(
      z.looseObject({
        exchange: z.string(),
        /** The address probed; null when none was (no address, lookup failed, refused). */
        ip: z.string().nullable().optional(),
        /** The TLSA records as published; `data` is the association data in lower-case hex. */
        tlsa: z
          .array(
            z.looseObject({
              usage: z.number().int(),
              selector: z.number().int(),
              matchingType: z.number().int(),
              data: z.string(),
            }),
          )
          .optional(),
        /** A usable record matched the presented chain; null when not checked (no TLSA, no TLS session, unreachable). */
        matched: z.boolean().nullable().optional(),
        /** The record that matched, in presentation form ("3 1 1 <hex>"). */
        matchedRecord: z.string().nullable().optional(),
        /** The "3 1 1" record of the key the host presents, what a DANE-EE record for it would hold. */
        presentedRecord: z.string().nullable().optional(),
        /**
         * The DNSSEC state of the TLSA records, validated in the host's zone: senders use them only
         * when `secure` (RFC 7672 §2.2); `unknown` when validation could not decide; null without records.
         */
        dnssec: z.enum(['secure', 'insecure', 'bogus', 'unknown']).nullable().optional(),
        error: z.string().nullable().optional(),
      }),
    )
    .optional(),
});
export type DaneDetails = z.infer<typeof daneDetailsSchema>;

/**
 * BIMI (draft-brand-indicators-for-message-identification): the `default._bimi` assertion record, the
 * SVG Tiny PS logo it points at (`l=`), the Mark Certificate (VMC or CMC) at `a=`, and the DMARC
 * enforcement receivers require before they show the logo.
 */
export const bimiDetailsSchema = z.looseObject({
  ...base,
  record: z.string().nullable().optional(),
  selector: z.string().optional(),
  /** The domain whose `_bimi` record applies: the domain itself, or its organisational domain (draft §7.2). */
  recordDomain: z.string().nullable().optional(),
  logoUrl: z.string().nullable().optional(),
  authorityUrl: z.string().nullable().optional(),
  /** The DMARC record BIMI depends on (draft §7.1) and whether it enforces. */
  dmarc: z
    .looseObject({
      policyDomain: z.string().nullable().optional(),
      policy: z.string().nullable().optional(),
      subdomainPolicy: z.string().nullable().optional(),
      pct: z.number().int().nullable().optional(),
      enforced: z.boolean().nullable().optional(),
    })
    .nullable()
    .optional(),
  logo: z
    .looseObject({
      fetched: z.boolean(),
      sizeBytes: z.number().int().nonnegative().nullable().optional(),
      /** `baseProfile` of the root element: "tiny-ps" when right, else what was found. */
      profile: z.string().nullable().optional(),
      square: z.boolean().nullable().optional(),
      width: z.number().nullable().optional(),
      height: z.number().nullable().optional(),
      title: z.string().nullable().optional(),
      /** Each SVG Tiny PS rule the logo breaks, in words. */
      errors: z.array(z.string()).optional(),
    })
    .nullable()
    .optional(),
  certificate: z
    .looseObject({
      present: z.boolean(),
      subject: z.string().nullable().optional(),
      issuer: z.string().nullable().optional(),
      validTo: z.string().nullable().optional(),
      daysRemaining: z.number().int().nullable().optional(),
      markType: z.enum(['VMC', 'CMC']).nullable().optional(),
      /** The logo embedded in the certificate equals the `l=` logo (draft §7.9); null when not compared. */
      logoMatches: z.boolean().nullable().optional(),
      /** The chain reaches a trusted root; null when its root is not one the scanner knows (Mark Certificate roots are their own list). */
      trusted: z.boolean().nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type BimiDetails = z.infer<typeof bimiDetailsSchema>;

/**
 * DNSSEC (RFC 4033–4035): the chain of trust from the trust anchor (the root's KSK by default) down
 * to the domain's zone through DS, DNSKEY and RRSIG records, and the signatures over the records the
 * scanner reads (SOA, MX, the SPF and DMARC TXT records, the MX hosts' TLSA records). Zones are
 * written without the trailing dot, the root as ".".
 */
const dnssecStates = ['secure', 'insecure', 'bogus', 'indeterminate'] as const;
export const dnssecDetailsSchema = z.looseObject({
  ...base,
  /** secure: validated from the anchor; insecure: provably unsigned (or only unsupported algorithms); bogus: fails validation (RFC 4033 §5). */
  state: z.enum(dnssecStates).nullable().optional(),
  /** The zone holding the domain's records. */
  zone: z.string().nullable().optional(),
  /** The trust anchors the chain starts from, as DS records in presentation format. */
  trustAnchor: z.array(z.string()).optional(),
  /** One entry per zone from the anchor down: the DS records the parent publishes and the keys the zone does. */
  chain: z
    .array(
      z.looseObject({
        zone: z.string(),
        state: z.enum(dnssecStates).nullable().optional(),
        /** Digest types of the DS records at the parent (1 SHA-1, 2 SHA-256, 4 SHA-384); empty for the anchor's zone. */
        dsDigestTypes: z.array(z.number().int()).optional(),
        /** Algorithms of the zone's DNSKEY records (8 RSA/SHA-256, 13 ECDSA P-256 …). */
        keyAlgorithms: z.array(z.number().int()).optional(),
        /** Key tags of the keys the DS records (or the anchor) authenticate. */
        keyTags: z.array(z.number().int()).optional(),
        validated: z.boolean(),
        error: z.string().nullable().optional(),
      }),
    )
    .optional(),
  /** Each RRset read, whether its signature validated, and when that signature expires. */
  signedRecords: z
    .array(
      z.looseObject({
        name: z.string(),
        type: z.string(),
        state: z.enum(dnssecStates).nullable().optional(),
        validated: z.boolean(),
        algorithm: z.number().int().nullable().optional(),
        expiresAt: z.string().nullable().optional(),
        error: z.string().nullable().optional(),
      }),
    )
    .optional(),
});
export type DnssecDetails = z.infer<typeof dnssecDetailsSchema>;

export const checkDetailsByType = {
  spf: spfDetailsSchema,
  dkim: dkimDetailsSchema,
  dmarc: dmarcDetailsSchema,
  blacklist: blacklistDetailsSchema,
  ssl_certificate: sslDetailsSchema,
  dns_performance: dnsDetailsSchema,
  mta_sts: mtaStsDetailsSchema,
  tls_rpt: tlsRptDetailsSchema,
  smtp: smtpDetailsSchema,
  reverse_dns: reverseDnsDetailsSchema,
  dane: daneDetailsSchema,
  bimi: bimiDetailsSchema,
  dnssec: dnssecDetailsSchema,
} as const satisfies Record<CheckType, z.ZodType>;
export type CheckDetails<T extends CheckType> = z.infer<(typeof checkDetailsByType)[T]>;

const checkBase = z.object({
  id: idSchema,
  domainId: idSchema,
  scanId: scanIdSchema,
  status: checkStatusSchema,
  value: z.string().nullable(),
  message: z.string().nullable(),
  recommendation: z.string().nullable(),
  createdAt: isoDateTime,
});

/** One check result, its `details` typed by its `type`. */
export const domainCheckSchema = z.discriminatedUnion('type', [
  checkBase.extend({ type: z.literal('spf'), details: spfDetailsSchema }),
  checkBase.extend({ type: z.literal('dkim'), details: dkimDetailsSchema }),
  checkBase.extend({ type: z.literal('dmarc'), details: dmarcDetailsSchema }),
  checkBase.extend({ type: z.literal('blacklist'), details: blacklistDetailsSchema }),
  checkBase.extend({ type: z.literal('ssl_certificate'), details: sslDetailsSchema }),
  checkBase.extend({ type: z.literal('dns_performance'), details: dnsDetailsSchema }),
  checkBase.extend({ type: z.literal('mta_sts'), details: mtaStsDetailsSchema }),
  checkBase.extend({ type: z.literal('tls_rpt'), details: tlsRptDetailsSchema }),
  checkBase.extend({ type: z.literal('smtp'), details: smtpDetailsSchema }),
  checkBase.extend({ type: z.literal('reverse_dns'), details: reverseDnsDetailsSchema }),
  checkBase.extend({ type: z.literal('dane'), details: daneDetailsSchema }),
  checkBase.extend({ type: z.literal('bimi'), details: bimiDetailsSchema }),
  checkBase.extend({ type: z.literal('dnssec'), details: dnssecDetailsSchema }),
]);
export type DomainCheck = z.infer<typeof domainCheckSchema>;

/** The DNS records the detail page shows (`GET /api/domains/name/{domainName}/dns-records`). */
export const dnsRecordsSchema = z.object({
  aRecords: z.array(z.string()),
  mxRecords: z.array(mxRecordSchema),
  spfRecord: z.string().nullable(),
  spfIps: z.array(z.string()),
  dmarcRecord: z.string().nullable(),
  /** When these were read: the latest DNS check, or now for a live lookup. */
  checkedAt: isoDateTime.nullable(),
});
export type DnsRecords = z.infer<typeof dnsRecordsSchema>;
