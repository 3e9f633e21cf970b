/**
 * Which alerts a completed scan raises and which open ones it resolves. Pure, no I/O: the recorder
 * reads what it needs (open alerts, the previous scan) and writes the decision.
 *
 * Two kinds of alert:
 * - conditions (a listing, a broken record, an SSL fault, an expiry threshold) carry a `conditionKey`;
 *   one stays open while its condition holds, so later scans raise nothing more, and the scan that
 *   finds the condition gone resolves it (`resolvedAt`), which is delivered too;
 * - events (DNS changed, status changed) compare this scan with the previous one and are never open.
 * A family whose check could not tell this time (`unknown`, a timeout) neither raises nor resolves.
 */
import {
  AlertType,
  SSL_EXPIRY_THRESHOLDS,
  alertTypeSeverity,
  features,
  reputationDetailLabel,
  sslExpirySeverity,
  type AlertSeverity,
  type CheckStatus,
  type SslExpiryThreshold,
} from '@sendwell/contracts';
import type { AlertDecision as EngineAlertDecision, RecordContext, ScanAlert } from '@sendwell/scan-engine';
import type { CheckResult } from '../checks/types.js';
import type { DnsSnapshot } from '@sendwell/contracts';
import type { ScanChecks } from '../scoring/reputation.js';
import { diffDns, type DkimKey } from './dns-diff.js';

/** A scan's alert (the engine's ScanAlert: linked to the check it is about). */
export type NewAlert = ScanAlert;

/** What the previous completed scan found, for events and transitions; null before the first. */
export type PreviousScan = NonNullable<RecordContext['previous']>;

/** The engine's recording context with this scan's own results. */
export interface AlertInput extends RecordContext {
  checks: ScanChecks;
  snapshot: DnsSnapshot;
}

export type AlertDecision = EngineAlertDecision<ScanAlert>;

const DAY_MS = 86_400_000;

export interface CertificateExpiry {
  expiresAt: string;
  daysRemaining: number;
}

/** The certificate's expiry as the SSL check reported it; null when the check could not read one. */
export function certificateExpiry(ssl: CheckResult, now: Date): CertificateExpiry | null {
  const expiresAt = typeof ssl.details.expiresAt === 'string' ? ssl.details.expiresAt : null;
  if (!expiresAt || Number.isNaN(Date.parse(expiresAt))) return null;
  const daysRemaining =
    typeof ssl.details.daysRemaining === 'number' ? ssl.details.daysRemaining : Math.floor((Date.parse(expiresAt) - now.getTime()) / DAY_MS);
  return { expiresAt: new Date(expiresAt).toISOString(), daysRemaining };
}

/**
 * The tightest threshold the certificate is within (1 before 7 before 14 before 30), or null. Expired
 * certificates are past them: they raise `ssl_security_issue` (SSL_EXPIRED) instead.
 */
export function sslThresholdReached(daysRemaining: number): SslExpiryThreshold | null {
  if (daysRemaining < 0) return null;
  for (const threshold of [...SSL_EXPIRY_THRESHOLDS].sort((a, b) => a - b)) {
    if (daysRemaining <= threshold) return threshold;
  }
  return null;
}

const sslExpiringKey = (expiresAt: string, threshold: number) => `ssl_expiring:${expiresAt}:${threshold}`;

/**
 * One alert per threshold reached, per certificate. A certificate first seen at 5 days raises the 7-day
 * alert only; a tighter threshold already raised (open or resolved… a renewed certificate is a new
 * expiry, so a new key) covers the looser ones.
 */
function sslExpiring(domain: string, expiry: CertificateExpiry, openKeys: ReadonlySet<string>): NewAlert | null {
  const threshold = sslThresholdReached(expiry.daysRemaining);
  if (threshold === null) return null;
  const tighterOrSame = SSL_EXPIRY_THRESHOLDS.filter((t) => t <= threshold);
  if (tighterOrSame.some((t) => openKeys.has(sslExpiringKey(expiry.expiresAt, t)))) return null;
  const days = expiry.daysRemaining === 1 ? '1 day' : `${expiry.daysRemaining} days`;
  return {
    type: AlertType.SslExpiring,
    severity: sslExpirySeverity[threshold],
    title: `SSL certificate for ${domain} expires in ${days}`,
    message: `The certificate served for ${domain} expires on ${expiry.expiresAt.slice(0, 10)}. Renew it before then so visitors and mail links keep working.`,
    details: { threshold, expiresAt: expiry.expiresAt, daysRemaining: expiry.daysRemaining },
    conditionKey: sslExpiringKey(expiry.expiresAt, threshold),
    checkType: 'ssl_certificate',
  };
}

/** Findings of the SSL check that make the certificate unsafe, not merely close to expiry. */
const SSL_SECURITY_CODES = new Set([
  'SSL_EXPIRED',
  'SSL_NOT_YET_VALID',
  'SSL_SELF_SIGNED',
  'SSL_UNTRUSTED_CHAIN',
  'SSL_INVALID',
  'SSL_HOSTNAME_MISMATCH',
  'SSL_WEAK_PROTOCOL',
  'SSL_WEAK_KEY',
]);

function sslSecurity(domain: string, ssl: CheckResult): NewAlert[] {
  const seen = new Set<string>();
  return ssl.details.findings
    .filter((f) => SSL_SECURITY_CODES.has(f.code) && !seen.has(f.code) && seen.add(f.code))
    .map((f) => ({
      type: AlertType.SslSecurityIssue,
      severity: f.code === 'SSL_WEAK_PROTOCOL' || f.code === 'SSL_WEAK_KEY' ? 'high' : alertTypeSeverity.ssl_security_issue,
      title: `SSL problem on ${domain}: ${f.message}`,
      message: `${f.message}${f.recommendation ? ` ${f.recommendation}` : ''}`,
      details: { code: f.code, rfc: f.rfc ?? null },
      conditionKey: `ssl:${f.code}`,
      checkType: 'ssl_certificate' as const,
    }));
}

interface Listed {
  list: string;
  zone: string;
  /** The listed address, or the domain for a domain-based list. */
  target: string;
  removalUrl: string | null;
}

/** Every (list, address) and (list, domain) listing the blacklist check reported. */
export function listingsOf(blacklist: CheckResult): Listed[] {
  const out: Listed[] = [];
  const ips = Array.isArray(blacklist.details.allIpResults) ? blacklist.details.allIpResults : [];
  for (const ip of ips) {
    for (const s of ip.listedServices ?? []) {
      const zone = typeof s.zone === 'string' ? s.zone : s.service;
      out.push({ list: s.service, zone, target: ip.ip, removalUrl: s.removalUrl ?? null });
    }
  }
  const domains = Array.isArray(blacklist.details.domainListings) ? (blacklist.details.domainListings as Array<Record<string, unknown>>) : [];
  for (const d of domains) {
    if (typeof d.service !== 'string' || typeof d.domain !== 'string') continue;
    out.push({ list: d.service, zone: typeof d.zone === 'string' ? d.zone : d.service, target: d.domain, removalUrl: typeof d.removalUrl === 'string' ? d.removalUrl : null });
  }
  return out;
}

/** Lists that did not answer this time: a listing on one of them is neither confirmed nor cleared. */
function unansweredZones(blacklist: CheckResult): Set<string> {
  const sites = Array.isArray(blacklist.details.sites) ? (blacklist.details.sites as Array<Record<string, unknown>>) : [];
  return new Set(sites.filter((s) => s.status === 'unknown').map((s) => String(s.zone ?? s.name)));
}

function blacklistListed(domain: string, blacklist: CheckResult): NewAlert[] {
  return listingsOf(blacklist).map((l) => ({
    type: AlertType.BlacklistListed,
    severity: alertTypeSeverity.blacklist_listed,
    title: l.target === domain ? `${domain} is listed on ${l.list}` : `${l.target} (a mail server of ${domain}) is listed on ${l.list}`,
    message: `${l.list} lists ${l.target}. Receivers that use it may reject or junk mail from ${domain}.${l.removalUrl ? ` Request removal at ${l.removalUrl} once the cause is fixed.` : ''}`,
    details: { list: l.list, zone: l.zone, target: l.target, removalUrl: l.removalUrl },
    conditionKey: `blacklist:${l.zone}:${l.target}`,
    checkType: 'blacklist' as const,
  }));
}

const BROKEN: ReadonlySet<CheckStatus> = new Set(['missing', 'error']);

const recordRules = [
  { check: 'spf', type: AlertType.SpfBroken, name: 'SPF', why: 'receivers can no longer tell which servers may send for it, so its mail is more likely to be junked or refused' },
  { check: 'dkim', type: AlertType.DkimMissing, name: 'DKIM', why: 'its mail is no longer signed with a key receivers can verify, and DMARC can only pass through SPF' },
  { check: 'dmarc', type: AlertType.DmarcMissing, name: 'DMARC', why: 'anyone can send mail in its name without receivers being told to refuse it' },
] as const;

/**
 * A record that was in order at the previous scan and is now missing or invalid. The first scan of a
 * domain raises none of these (nothing "disappeared"); the check's own status and guide cover it.
 */
function brokenRecords(domain: string, checks: ScanChecks, previous: PreviousScan | null): { raise: NewAlert[]; evaluated: Set<string> } {
  const raise: NewAlert[] = [];
  const evaluated = new Set<string>();
  for (const rule of recordRules) {
    const now = checks[rule.check];
    if (now.status === 'unknown') continue;
    evaluated.add(`record:${rule.check}`);
    const before = previous?.checks[rule.check]?.status;
    if (!BROKEN.has(now.status) || before === undefined || BROKEN.has(before) || before === 'unknown') continue;
    const gone = now.status === 'missing';
    raise.push({
      type: rule.type,
      severity: alertTypeSeverity[rule.type],
      title: `${rule.name} ${gone ? 'record missing' : 'record invalid'} for ${domain}`,
      message: `${now.message} Since the previous scan, ${domain}'s ${rule.name} ${gone ? 'record has disappeared' : 'record has turned invalid'}: ${rule.why}.`,
      details: { check: rule.check, status: now.status, previousStatus: before },
      conditionKey: `record:${rule.check}`,
      checkType: rule.check,
    });
  }
  return { raise, evaluated };
}

function dkimKeys(details: Record<string, unknown> | undefined): DkimKey[] | null {
  const records = details?.records;
  if (!Array.isArray(records)) return null;
  return records.filter((r): r is DkimKey => typeof r?.selector === 'string' && typeof r?.record === 'string');
}

function dnsChange(input: AlertInput): NewAlert | null {
  const previous = input.previous;
  if (!previous?.snapshot) return null;
  const before = previous.checks.dkim;
  const dkimBefore = before && before.status !== 'unknown' ? dkimKeys(before.details) : null;
  const dkimNow = input.checks.dkim.status !== 'unknown' ? dkimKeys(input.checks.dkim.details) : null;
  const changes = diffDns({
    previous: previous.snapshot,
    current: input.snapshot,
    dkim: dkimBefore && dkimNow ? { previous: dkimBefore, current: dkimNow } : null,
  });
  if (changes.length === 0) return null;
  const severity: AlertSeverity = changes.some((c) => c.impact === 'weakens') ? 'high' : changes.some((c) => c.impact === 'mail') ? 'medium' : 'low';
  const first = changes[0]!;
  return {
    type: AlertType.DnsChange,
    severity,
    title: changes.length === 1 ? `${input.domain}: ${first.summary}` : `${input.domain}: ${first.summary} and ${changes.length - 1} more DNS change${changes.length > 2 ? 's' : ''}`,
    message: `Since the previous scan: ${changes.map((c) => c.summary).join('; ')}. If you did not make ${changes.length === 1 ? 'this change' : 'these changes'}, check your DNS provider's account.`,
    details: { changes },
    conditionKey: null,
    checkType: 'dns_performance',
  };
}

const STATUS_RANK: Record<string, number> = { healthy: 0, warning: 1, critical: 2 };

/** The domain's status changed, or its score crossed a label boundary (Excellent / Good / Fair / Poor). */
export function statusChange(domain: string, status: AlertInput['status'], score: AlertInput['score']): NewAlert | null {
  const sentences: string[] = [];
  let worse = false;
  let severity: AlertSeverity = 'low';
  const [rb, ra] = [STATUS_RANK[status.before], STATUS_RANK[status.after]];
  if (rb !== undefined && ra !== undefined && rb !== ra) {
    sentences.push(`${domain} is now ${status.after} (it was ${status.before})`);
    worse = ra > rb;
    if (worse) severity = status.after === 'critical' ? 'critical' : 'medium';
  }
  if (score.before !== null) {
    const [lb, la] = [reputationDetailLabel(score.before), reputationDetailLabel(score.after)];
    if (lb !== la) {
      const fell = score.after < score.before;
      sentences.push(`${sentences.length ? 'its' : `${domain}'s`} reputation ${fell ? 'fell' : 'rose'} from ${lb} to ${la} (${score.before} → ${score.after})`);
      if (fell && severity === 'low') severity = 'medium';
      worse ||= fell;
    }
  }
  if (sentences.length === 0) return null;
  // Starts with the domain name, which keeps its case.
  const text = sentences.join(', and ');
  return {
    type: AlertType.StatusChange,
    severity,
    title: text,
    message: worse ? `${text}. The domain's checks say what changed and how to fix it.` : `${text}.`,
    details: { statusBefore: status.before, statusAfter: status.after, scoreBefore: score.before, scoreAfter: score.after },
    conditionKey: null,
    checkType: null,
  };
}

/** Every alert decision of one scan, by the owner's plan (spec README: recorded for paid plans; SSL and DNS-change alerts standard and above). */
export function decideAlerts(input: AlertInput): AlertDecision {
  if (!features.alertsRecorded(input.plan)) return { raise: [], resolve: [] };
  const { domain, checks } = input;
  const sslAndDns = features.sslAndDnsChangeAlerts(input.plan);
  const conditions: NewAlert[] = [];
  /** Key prefixes whose conditions this scan could judge: only those may be resolved. */
  const judged: string[] = [];

  if (checks.blacklist.status !== 'unknown') {
    conditions.push(...blacklistListed(domain, checks.blacklist));
    judged.push('blacklist:');
  }
  const records = brokenRecords(domain, checks, input.previous);
  conditions.push(...records.raise);
  judged.push(...records.evaluated);

  const expiry = certificateExpiry(checks.ssl_certificate, input.now);
  const openKeys = new Set(input.openAlerts.map((a) => a.conditionKey));
  if (sslAndDns && expiry) {
    conditions.push(...sslSecurity(domain, checks.ssl_certificate));
    judged.push('ssl:');
    const expiring = sslExpiring(domain, expiry, openKeys);
    if (expiring) conditions.push(expiring);
  }

  const current = new Set(conditions.map((c) => c.conditionKey));
  // A condition stays open while it holds; a broken record stays open while broken (its alert was raised on the transition).
  const unanswered = unansweredZones(checks.blacklist);
  const holds = (key: string) =>
    current.has(key) ||
    (key.startsWith('record:') && BROKEN.has(checks[key.slice('record:'.length) as 'spf' | 'dkim' | 'dmarc'].status)) ||
    (key.startsWith('blacklist:') && unanswered.has(key.split(':')[1]!));
  const resolve = input.openAlerts
    .filter((a) => {
      if (a.conditionKey.startsWith('ssl_expiring:')) {
        // Resolved by a renewal: the certificate now served expires at another time.
        return expiry !== null && !a.conditionKey.startsWith(`ssl_expiring:${expiry.expiresAt}:`);
      }
      return judged.some((prefix) => a.conditionKey.startsWith(prefix)) && !holds(a.conditionKey);
    })
    .map((a) => a.id);

  const raise = conditions.filter((c) => c.conditionKey !== null && !openKeys.has(c.conditionKey));
  if (sslAndDns) {
    const change = dnsChange(input);
    if (change) raise.push(change);
  }
  const status = statusChange(domain, input.status, input.score);
  if (status) raise.push(status);
  return { raise, resolve };
}
