/**
 * The reputation score of part 2 §9, from one scan's checks and DNS snapshot. Pure, no I/O.
 *
 *   email authentication      40 = SPF 13 + DKIM 13 + DMARC 14 (DMARC scaled by policy strength)
 *   security & deliverability 35 = blacklist 10 + SSL certificate 10 + spoofing protection 7
 *                                  + MX STARTTLS 3 + MTA-STS 2 + DANE 1 + TLS-RPT 1 + BIMI 1
 *   configuration health      25 = DNS performance 10 + mail routing (MX) 6 + name servers 3
 *                                  + forward-confirmed reverse DNS 4 + DNSSEC 2
 *
 * Each check's part is its full weight times a factor of its status; `unknown` (the check could not
 * tell, e.g. a timeout) earns half, so a flaky network moves the score less than a real fault.
 */
import {
  BLACKLIST_SCORE_MAX,
  BLACKLIST_POINTS_PER_LISTING,
  CHECK_STATUS_FACTOR,
  DMARC_POLICY_FACTOR,
  REPUTATION_PART_WEIGHTS,
  clampBlacklistScore,
  reputationScoreFromParts,
  reputationTrend,
  type CheckStatus,
  type CheckType,
  type ReputationFactors,
  type ReputationTrend,
} from '@sendwell/contracts';
import type { CheckResult } from '../checks/types.js';
import type { DnsSnapshot } from '@sendwell/contracts';

/** The parts and status factors are the contracts' (reports compute expected gains from the same numbers). */
const PART_WEIGHTS = REPUTATION_PART_WEIGHTS;
const STATUS_FACTOR = CHECK_STATUS_FACTOR;

export type ScanChecks = Record<CheckType, CheckResult>;

export interface ReputationScore {
  score: number;
  factors: ReputationFactors;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function dmarcPart(check: CheckResult): { score: number; policy: string | null; pct: number } {
  const policy = typeof check.details.policy === 'string' ? check.details.policy.toLowerCase() : null;
  const pct = typeof check.details.pct === 'number' ? Math.min(100, Math.max(0, check.details.pct)) : 100;
  const strength = policy && policy in DMARC_POLICY_FACTOR ? DMARC_POLICY_FACTOR[policy]! : 1;
  // pct < 100 applies the policy to only part of the failing mail (RFC 7489 §6.6.4); the rest is treated as p=none.
  const effective = DMARC_POLICY_FACTOR.none! + (strength - DMARC_POLICY_FACTOR.none!) * (pct / 100);
  const factor = policy && policy in DMARC_POLICY_FACTOR ? effective : 1;
  return { score: PART_WEIGHTS.dmarc * STATUS_FACTOR[check.status] * factor, policy, pct };
}

/** Counts lists that report the domain or one of its addresses; `unknown` check earns half. */
function blacklistPart(check: CheckResult): { score: number; status: 'clean' | 'listed' | 'unknown'; listings: number } {
  const sites = Array.isArray(check.details.sites) ? (check.details.sites as Array<{ status?: string }>) : [];
  const listedSites = sites.filter((s) => s.status === 'listed').length;
  const listedIps = typeof check.details.listedIpsCount === 'number' ? check.details.listedIpsCount : 0;
  const listings = Math.max(listedSites, listedIps, check.status === 'error' ? 1 : 0);
  if (listings > 0) {
    return { score: clampBlacklistScore(BLACKLIST_SCORE_MAX - BLACKLIST_POINTS_PER_LISTING * listings), status: 'listed', listings };
  }
  if (check.status === 'unknown' || check.status === 'missing') {
    return { score: BLACKLIST_SCORE_MAX * STATUS_FACTOR.unknown, status: 'unknown', listings: 0 };
  }
  // A warning here is about the lookups (a list refused to answer), not a listing.
  return { score: check.status === 'warning' ? BLACKLIST_SCORE_MAX * 0.8 : BLACKLIST_SCORE_MAX, status: 'clean', listings: 0 };
}

/** The SPF `all` qualifier: -all 5, ~all 4, ?all or no `all` 1, +all 0 (RFC 7208 §5.1). */
function spfAllPoints(spfRecord: string | null): number {
  if (!spfRecord) return 0;
  const match = /(?:^|\s)([-~?+]?)all(?:\s|$)/i.exec(spfRecord);
  if (!match) return spfRecord.toLowerCase().includes('redirect=') ? 4 : 1;
  return { '-': 5, '~': 4, '?': 1, '+': 0, '': 0 }[match[1] as '-' | '~' | '?' | '+' | ''];
}

/**
 * Spoofing protection: whether a forged sender is actually refused, out of 10 (SPF `all` 5 + DMARC
 * enforcement 5) scaled to the part's weight.
 */
function spoofingPart(snapshot: DnsSnapshot, dmarcPolicy: string | null, dmarcStatus: CheckStatus): number {
  const dmarcPoints = dmarcStatus === 'missing' ? 0 : dmarcPolicy === 'reject' ? 5 : dmarcPolicy === 'quarantine' ? 4 : dmarcPolicy === 'none' ? 1 : 0;
  return ((spfAllPoints(snapshot.spfRecord) + dmarcPoints) / 10) * PART_WEIGHTS.spoofingProtection;
}

/**
 * MX present and every exchange resolving: full; present but some exchanges have no address: half;
 * none: 0, unless the domain declares it takes no mail (null MX, parked), which is what it should do.
 */
function mailRoutingPart(snapshot: DnsSnapshot): number {
  if (snapshot.failed.includes('mx')) return PART_WEIGHTS.mailRouting * STATUS_FACTOR.unknown;
  if (snapshot.profile === 'null_mx' || snapshot.profile === 'parked') return PART_WEIGHTS.mailRouting;
  if (snapshot.mx.length === 0) return 0;
  return snapshot.mx.every((m) => m.ips.length > 0) ? PART_WEIGHTS.mailRouting : PART_WEIGHTS.mailRouting / 2;
}

/** RFC 1034 §4.1 asks for at least two name servers: two or more full, one half, none 0. */
function nameServersPart(snapshot: DnsSnapshot): number {
  if (snapshot.failed.includes('ns')) return PART_WEIGHTS.nameServers * STATUS_FACTOR.unknown;
  if (snapshot.ns.length >= 2) return PART_WEIGHTS.nameServers;
  return snapshot.ns.length === 1 ? PART_WEIGHTS.nameServers / 2 : 0;
}

/** A mail check's part: its weight times its status factor. */
const statusPart = (weight: number, check: CheckResult) => weight * STATUS_FACTOR[check.status];

export function computeReputation(checks: ScanChecks, snapshot: DnsSnapshot): ReputationScore {
  const spf = PART_WEIGHTS.spf * STATUS_FACTOR[checks.spf.status];
  const dkim = PART_WEIGHTS.dkim * STATUS_FACTOR[checks.dkim.status];
  const dmarc = dmarcPart(checks.dmarc);
  const blacklist = blacklistPart(checks.blacklist);
  const ssl = PART_WEIGHTS.ssl * STATUS_FACTOR[checks.ssl_certificate.status];
  const spoofing = spoofingPart(snapshot, dmarc.policy, checks.dmarc.status);
  const smtp = statusPart(PART_WEIGHTS.smtp, checks.smtp);
  const mtaSts = statusPart(PART_WEIGHTS.mtaSts, checks.mta_sts);
  const tlsRpt = statusPart(PART_WEIGHTS.tlsRpt, checks.tls_rpt);
  const dane = statusPart(PART_WEIGHTS.dane, checks.dane);
  const bimi = statusPart(PART_WEIGHTS.bimi, checks.bimi);
  const dnsPerformance = PART_WEIGHTS.dnsPerformance * STATUS_FACTOR[checks.dns_performance.status];
  const mailRouting = mailRoutingPart(snapshot);
  const nameServers = nameServersPart(snapshot);
  const reverseDns = statusPart(PART_WEIGHTS.reverseDns, checks.reverse_dns);
  const dnssec = statusPart(PART_WEIGHTS.dnssec, checks.dnssec);

  const weightedScores = {
    emailAuthentication: round1(spf + dkim + dmarc.score),
    securityDeliverability: round1(blacklist.score + ssl + spoofing + smtp + mtaSts + dane + tlsRpt + bimi),
    configurationHealth: round1(dnsPerformance + mailRouting + nameServers + reverseDns + dnssec),
  };
  return {
    score: reputationScoreFromParts(weightedScores),
    factors: {
      weightedScores,
      emailAuthentication: { spf: round1(spf), dkim: round1(dkim), dmarc: round1(dmarc.score), dmarcPolicy: dmarc.policy, dmarcPct: dmarc.pct },
      securityDeliverability: {
        blacklist: { score: round1(blacklist.score), status: blacklist.status, listings: blacklist.listings },
        ssl: round1(ssl),
        spoofingProtection: round1(spoofing),
        smtp: round1(smtp),
        mtaSts: round1(mtaSts),
        dane: round1(dane),
        tlsRpt: round1(tlsRpt),
        bimi: round1(bimi),
      },
      configurationHealth: {
        dnsPerformance: round1(dnsPerformance),
        mailRouting: round1(mailRouting),
        nameServers: round1(nameServers),
        nameServerCount: snapshot.ns.length,
        reverseDns: round1(reverseDns),
        dnssec: round1(dnssec),
      },
    },
  };
}

/** The row written to domain_reputation_history: the score, its trend against the previous one (±5). */
export function withTrend(current: ReputationScore, previousScore: number | null): ReputationScore & { trend: ReputationTrend; previousScore: number | null } {
  return { ...current, previousScore, trend: reputationTrend(current.score, previousScore) };
}
