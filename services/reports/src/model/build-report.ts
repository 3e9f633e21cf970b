/**
 * The report document from what the scanner stored: the domain's latest completed scan, its checks,
 * reputation and history. Pure, no I/O (the source repository reads; this decides what it means), so
 * every rule here is tested without a database.
 */
import {
  CHECK_STATUS_FACTOR,
  REPORT_MAIL_FLOW_SENDERS,
  REPORT_SCHEMA_ID,
  REPORT_SCHEMA_VERSION,
  REPORT_TLS_FAILURE_TYPES,
  REPUTATION_PART_WEIGHTS,
  REPUTATION_WEIGHTS,
  SUMMARY_ACTION_COUNT,
  checkStatusSchema,
  checkTypeSchema,
  findingSchema,
  dmarcPolicySchema,
  reportCheckTitles,
  reputationDetailLabel,
  sendingServiceById,
  type CheckStatus,
  type CheckType,
  type DnsSnapshot,
  type FindingSeverity,
  type ReportAction,
  type ReportBlacklist,
  type ReportCheck,
  type ReportDnsChange,
  type ReportDocument,
  type ReportFinding,
  type ReportKind,
  type ReportMailFlow,
  type ReportMailSender,
  type ReportTrendPoint,
  type SenderRequirements,
} from '@sendwell/contracts';

export interface SourceCheck {
  type: string;
  status: string;
  value: string | null;
  message: string | null;
  recommendation: string | null;
  details: unknown;
}

export interface SourceDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  score: number | null;
  status: string | null;
  checks: Partial<Record<string, string>>;
}

/** What the intake stored for the report's mail-flow window, summed (see MailFlowSourceRepository). */
export interface SourceMailFlow {
  window: { from: string; to: string };
  /** Reports whose period overlaps the window. */
  reports: { aggregate: number; tls: number };
  totals: { pass: number; fail: number; forwarded: number };
  /** Per source address; empty in a summary. */
  sources: Array<{ ip: string; host: string | null; serviceId: string | null; messages: number; pass: number }>;
  /** The newest aggregate report's policy_published as stored; null without one (or in a summary). */
  policy: { published: unknown; reporter: string; periodEnd: Date } | null;
  /** Null without TLS-RPT data (or in a summary). */
  tls: { reports: number; successful: number; failed: number; failures: Array<{ resultType: string; sessions: number }> } | null;
}

export interface ReportSource {
  reportId: number;
  reportType: string;
  kind: ReportKind;
  generatedAt: Date;
  domain: { id: number; name: string; status: string };
  scan: { id: string; completedAt: Date; trigger: string; snapshot: DnsSnapshot | null } | null;
  checks: SourceCheck[];
  reputation: { score: number; trend: string; previousScore: number | null; factors: unknown } | null;
  windowDays: number;
  days: SourceDay[];
  scansInWindow: number;
  dnsChanges: Array<{ at: Date; changes: unknown }>;
  /** Null when the plan has no mail flow or nothing was reported in the window. */
  mailFlow: SourceMailFlow | null;
  /** The intake's latest verdict as stored (already parsed); null when the plan has none or it was never judged. */
  senderRequirements: SenderRequirements | null;
}

const DAY_MS = 86_400_000;
const round1 = (n: number) => Math.round(n * 10) / 10;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Which part of the score each check holds. */
const CHECK_PART: Record<CheckType, keyof typeof REPUTATION_PART_WEIGHTS> = {
  spf: 'spf',
  dkim: 'dkim',
  dmarc: 'dmarc',
  blacklist: 'blacklist',
  ssl_certificate: 'ssl',
  dns_performance: 'dnsPerformance',
  mta_sts: 'mtaSts',
  tls_rpt: 'tlsRpt',
  smtp: 'smtp',
  reverse_dns: 'reverseDns',
  dane: 'dane',
  bimi: 'bimi',
  dnssec: 'dnssec',
};

/** Where the scanner's factors keep each part's points. */
function earnedFromFactors(factors: unknown, part: keyof typeof REPUTATION_PART_WEIGHTS): number | null {
  if (!isRecord(factors)) return null;
  const auth = isRecord(factors.emailAuthentication) ? factors.emailAuthentication : {};
  const security = isRecord(factors.securityDeliverability) ? factors.securityDeliverability : {};
  const config = isRecord(factors.configurationHealth) ? factors.configurationHealth : {};
  switch (part) {
    case 'spf':
    case 'dkim':
    case 'dmarc':
      return num(auth[part]);
    case 'blacklist':
      return isRecord(security.blacklist) ? num(security.blacklist.score) : null;
    case 'ssl':
    case 'spoofingProtection':
    case 'smtp':
    case 'mtaSts':
    case 'dane':
    case 'bimi':
    case 'tlsRpt':
      return num(security[part]);
    case 'dnsPerformance':
    case 'mailRouting':
    case 'nameServers':
    case 'reverseDns':
    case 'dnssec':
      return num(config[part]);
  }
}

const SEVERITY_RANK: Record<FindingSeverity, number> = { error: 0, warning: 1, info: 2 };
/** How urgent a check's status is: a failure before a warning before an unknown, then by points. */
const STATUS_URGENCY: Record<CheckStatus, number> = { error: 0, missing: 0, warning: 1, unknown: 2, valid: 3, success: 3 };

function findingsOf(details: unknown): ReportFinding[] {
  if (!isRecord(details)) return [];
  return arr(details.findings)
    .map((f) => findingSchema.safeParse(f))
    .filter((r) => r.success)
    .map(({ data: f }) => ({ code: f.code, severity: f.severity, message: f.message, rfc: f.rfc ?? null, fix: f.recommendation ?? null }))
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
}

function published(type: CheckType, check: SourceCheck, domain: string, snapshot: DnsSnapshot | null): ReportCheck['published'] {
  const d = isRecord(check.details) ? check.details : {};
  const rows: ReportCheck['published'] = [];
  const add = (label: string, value: string | null) => {
    if (value) rows.push({ label, value });
  };
  switch (type) {
    case 'spf': {
      add(`TXT ${domain}`, str(d.record));
      const lookups = num(d.lookupCount);
      if (lookups !== null) add('DNS lookups', `${lookups} of 10`);
      break;
    }
    case 'dkim':
      for (const r of arr(d.records)) {
        // A selector seen signing for a subdomain in the DMARC reports has its key under that subdomain.
        if (isRecord(r) && str(r.selector) && str(r.record)) add(`TXT ${String(r.selector)}._domainkey.${str(r.signingDomain) ?? domain}`, String(r.record));
      }
      if (rows.length === 0) add('Selectors checked', arr(d.selectorsChecked).filter((s): s is string => typeof s === 'string').join(', ') || null);
      break;
    case 'dmarc':
      add(`TXT _dmarc.${domain}`, str(d.record));
      break;
    case 'blacklist': {
      const ips = arr(d.allIpResults).flatMap((r) => (isRecord(r) && str(r.ip) ? [String(r.ip)] : []));
      add('Addresses checked', ips.join(', ') || null);
      add('Lists checked', arr(d.sites).length ? String(arr(d.sites).length) : null);
      break;
    }
    case 'ssl_certificate': {
      add('Issuer', str(d.issuer));
      const expires = str(d.expiresAt);
      const days = num(d.daysRemaining);
      if (expires) add('Expires', `${expires.slice(0, 10)}${days !== null ? ` (${days} days)` : ''}`);
      break;
    }
    case 'mta_sts': {
      add(`TXT _mta-sts.${domain}`, str(d.record));
      const policy = isRecord(d.policy) ? d.policy : null;
      if (policy) add('Policy', [`mode ${str(policy.mode) ?? '?'}`, `max_age ${num(policy.maxAge) ?? '?'}`, ...arr(policy.mx).map((m) => `mx ${String(m)}`)].join(', '));
      break;
    }
    case 'tls_rpt':
      add(`TXT _smtp._tls.${domain}`, str(d.record));
      break;
    case 'smtp':
      for (const h of arr(d.hosts)) {
        if (!isRecord(h) || !str(h.exchange)) continue;
        const tls = h.starttls === true ? `STARTTLS ${str(h.tlsVersion) ?? ''}`.trim() : h.starttls === false ? 'no STARTTLS' : (str(h.error) ?? 'not reached');
        add(`MX ${String(h.exchange)}${str(h.ip) ? ` (${String(h.ip)})` : ''}`, tls);
      }
      break;
    case 'dane':
      for (const h of arr(d.hosts)) {
        if (!isRecord(h) || !str(h.exchange)) continue;
        const records = arr(h.tlsa).flatMap((t) => (isRecord(t) ? [`${String(t.usage)} ${String(t.selector)} ${String(t.matchingType)}`] : []));
        if (records.length === 0) continue;
        add(`TLSA _25._tcp.${String(h.exchange)}`, `${records.join(', ')}${h.matched === true ? ' (matches)' : h.matched === false ? ' (no match)' : ''}`);
      }
      break;
    case 'dnssec':
      for (const link of arr(d.chain)) {
        if (!isRecord(link) || !str(link.zone)) continue;
        add(`Zone ${String(link.zone)}`, link.validated === true ? 'signed, validated' : (str(link.error) ?? 'not validated'));
      }
      break;
    case 'bimi': {
      add(`TXT default._bimi.${domain}`, str(d.record));
      const certificate = isRecord(d.certificate) ? d.certificate : null;
      if (certificate?.present === true) add('Mark certificate', `${str(certificate.markType) ?? 'certificate'} from ${str(certificate.issuer) ?? 'an unknown issuer'}`);
      break;
    }
    case 'reverse_dns':
      for (const a of arr(d.addresses)) {
        if (!isRecord(a) || !str(a.ip)) continue;
        const names = arr(a.ptr).filter((n): n is string => typeof n === 'string');
        add(`PTR ${String(a.ip)}`, `${names.join(', ') || 'none'}${a.forwardConfirmed === true ? ' (confirmed)' : ''}`);
      }
      break;
    case 'dns_performance':
      if (snapshot) {
        add('NS', snapshot.ns.join(', ') || null);
        add('MX', snapshot.mx.map((m) => `${m.priority} ${m.exchange}`).join(', ') || null);
      }
      if (num(d.responseTimeMs) !== null) add('Slowest answer', `${Math.round(num(d.responseTimeMs)!)} ms`);
      break;
  }
  if (rows.length === 0) add('Value', check.value);
  return rows;
}

function reportChecks(source: ReportSource): ReportCheck[] {
  const byType = new Map<CheckType, SourceCheck>();
  for (const c of source.checks) {
    const type = checkTypeSchema.safeParse(c.type);
    if (type.success) byType.set(type.data, c);
  }
  const checks: ReportCheck[] = [];
  for (const [type, check] of byType) {
    const status = checkStatusSchema.catch('unknown').parse(check.status);
    const part = CHECK_PART[type];
    const max = REPUTATION_PART_WEIGHTS[part];
    const earned = earnedFromFactors(source.reputation?.factors, part) ?? max * CHECK_STATUS_FACTOR[status];
    checks.push({
      type,
      title: reportCheckTitles[type],
      status,
      published: published(type, check, source.domain.name, source.scan?.snapshot ?? null),
      message: check.message,
      findings: findingsOf(check.details),
      points: { earned: round1(Math.min(max, Math.max(0, earned))), max },
    });
  }
  // Most impact first: failures before warnings, then the points at stake.
  return checks.sort(
    (a, b) => STATUS_URGENCY[a.status] - STATUS_URGENCY[b.status] || b.points.max - b.points.earned - (a.points.max - a.points.earned),
  );
}

const GUIDES: ReadonlySet<CheckType> = new Set(['spf', 'dkim', 'dmarc', 'blacklist']);

function actionsOf(source: ReportSource, checks: ReportCheck[]): ReportAction[] {
  const domain = source.domain.name;
  const candidates: Array<Omit<ReportAction, 'rank'> & { urgency: number }> = [];
  for (const check of checks) {
    const gain = round1(check.points.max - check.points.earned);
    if (STATUS_URGENCY[check.status] === 3 && gain < 0.5) continue;
    const top = check.findings[0];
    const original = source.checks.find((c) => c.type === check.type);
    candidates.push({
      urgency: STATUS_URGENCY[check.status],
      check: check.type,
      title: `${check.title}: ${top?.message ?? check.message ?? 'needs attention'}`,
      detail: top?.fix ?? original?.recommendation ?? `Review the ${check.title} findings below and correct the record.`,
      expectedGain: gain,
      guidePath: GUIDES.has(check.type) ? `/fixing-guide/${encodeURIComponent(domain)}/${check.type}` : null,
    });
  }
  // Parts of the score that are not one check's: spoofing protection, mail routing, name servers.
  const factors = source.reputation?.factors;
  const extra = (part: 'spoofingProtection' | 'mailRouting' | 'nameServers', check: CheckType, title: string, detail: string) => {
    const earned = earnedFromFactors(factors, part);
    if (earned === null) return;
    const gain = round1(REPUTATION_PART_WEIGHTS[part] - earned);
    if (gain >= 0.5) candidates.push({ urgency: 1, check, title, detail, expectedGain: gain, guidePath: GUIDES.has(check) ? `/fixing-guide/${encodeURIComponent(domain)}/${check}` : null });
  };
  extra(
    'spoofingProtection',
    'dmarc',
    'Refuse forged mail: end SPF with -all and enforce DMARC',
    'Receivers only refuse mail forged in your name when SPF ends in -all (RFC 7208 §5.1) and DMARC asks for quarantine or reject (RFC 7489 §6.3). Move there once every legitimate sender passes.',
  );
  extra('mailRouting', 'dns_performance', 'Publish MX records whose hosts resolve', 'Every MX host needs an A or AAAA record, or mail to the domain cannot be delivered (RFC 5321 §5.1).');
  extra('nameServers', 'dns_performance', 'Serve the zone from at least two name servers', 'A second name server on another network keeps the domain resolvable when one fails (RFC 1034 §4.1).');
  return candidates
    .sort((a, b) => a.urgency - b.urgency || b.expectedGain - a.expectedGain)
    .map(({ urgency: _urgency, ...action }, i) => ({ ...action, rank: i + 1 }));
}

function blacklistOf(source: ReportSource): ReportBlacklist | null {
  const check = source.checks.find((c) => c.type === 'blacklist');
  if (!check || !isRecord(check.details)) return null;
  const d = check.details;
  const lists: ReportBlacklist['lists'] = arr(d.sites).flatMap((s) => {
    if (!isRecord(s) || !str(s.name)) return [];
    const status = s.status === 'listed' || s.status === 'clean' ? s.status : 'unknown';
    return [{ name: String(s.name), status, removalUrl: str(s.removalUrl), lookupUrl: str(s.lookupUrl) }];
  });
  const addresses: ReportBlacklist['addresses'] = arr(d.allIpResults).flatMap((r) => {
    if (!isRecord(r) || !str(r.ip)) return [];
    const listedOn = arr(r.listedServices).flatMap((l) => (isRecord(l) && str(l.service) ? [{ list: String(l.service), removalUrl: str(l.removalUrl) }] : []));
    return [{ ip: String(r.ip), source: str(r.source), listedOn }];
  });
  const count = (status: string) => lists.filter((l) => l.status === status).length;
  return { lists, addresses, counts: { listed: count('listed'), clean: count('clean'), unknown: count('unknown') } };
}

/** Every day of the window, oldest first; a day without a scan is a point with nulls (a gap in charts). */
function trendPoints(source: ReportSource): ReportTrendPoint[] {
  const byDay = new Map(source.days.map((d) => [d.day, d]));
  const end = Date.UTC(source.generatedAt.getUTCFullYear(), source.generatedAt.getUTCMonth(), source.generatedAt.getUTCDate());
  const points: ReportTrendPoint[] = [];
  for (let i = source.windowDays - 1; i >= 0; i--) {
    const day = new Date(end - i * DAY_MS).toISOString().slice(0, 10);
    const found = byDay.get(day);
    const checks: ReportTrendPoint['checks'] = {};
    for (const [type, status] of Object.entries(found?.checks ?? {})) {
      const t = checkTypeSchema.safeParse(type);
      const s = checkStatusSchema.safeParse(status);
      if (t.success && s.success) checks[t.data] = s.data;
    }
    points.push({ day, score: found?.score ?? null, status: found?.status ?? null, checks });
  }
  return points;
}

function dnsChangesOf(source: ReportSource): ReportDnsChange[] {
  return source.dnsChanges
    .flatMap(({ at, changes }) =>
      arr(changes).flatMap((c): ReportDnsChange[] => {
        if (!isRecord(c) || !str(c.summary)) return [];
        const impact: ReportDnsChange['impact'] = c.impact === 'weakens' || c.impact === 'mail' ? c.impact : 'other';
        return [{ at: at.toISOString(), record: str(c.record) ?? 'DNS', impact, summary: String(c.summary) }];
      }),
    )
    .sort((a, b) => a.at.localeCompare(b.at));
}

function summaryOf(source: ReportSource, checks: ReportCheck[], actions: ReportAction[]): string {
  const domain = source.domain.name;
  if (!source.scan) return `${domain} has no completed scan yet. Run a scan, then generate this report again.`;
  const score = source.reputation?.score ?? null;
  const failing = checks.filter((c) => STATUS_URGENCY[c.status] === 0).map((c) => c.title);
  const warning = checks.filter((c) => STATUS_URGENCY[c.status] === 1).map((c) => c.title);
  const head = score === null ? `${domain} has no reputation score yet` : `${domain} scores ${score}/100 (${reputationDetailLabel(score)})`;
  const state =
    failing.length > 0
      ? `, with ${failing.join(', ')} failing`
      : warning.length > 0
        ? `, with warnings on ${warning.join(', ')}`
        : ' and every check passes';
  const top = actions.slice(0, SUMMARY_ACTION_COUNT);
  const gain = round1(top.reduce((sum, a) => sum + a.expectedGain, 0));
  const tail = top.length === 0 ? '' : ` Fixing the top ${top.length === 1 ? 'action' : `${top.length} actions`} is expected to add about ${Math.round(gain)} points.`;
  return `${head}${state}.${tail}`;
}

function breakdownOf(factors: unknown): ReportDocument['overall']['breakdown'] {
  const weighted = isRecord(factors) && isRecord(factors.weightedScores) ? factors.weightedScores : null;
  if (!weighted) return null;
  const part = (key: keyof typeof REPUTATION_WEIGHTS) => {
    const max = REPUTATION_WEIGHTS[key];
    return { score: round1(Math.min(max, Math.max(0, num(weighted[key]) ?? 0))), max } as const;
  };
  return {
    emailAuthentication: part('emailAuthentication') as { score: number; max: 40 },
    securityDeliverability: part('securityDeliverability') as { score: number; max: 35 },
    configurationHealth: part('configurationHealth') as { score: number; max: 25 },
  };
}

/** A share rounded to 4 places, null when nothing was counted (the mail-flow screen's rounding). */
const share = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

/**
 * Senders by name: a catalogue service (all its addresses together), else the address's confirmed
 * host, else the address itself. Busiest first, ties by name.
 */
function sendersOf(sources: SourceMailFlow['sources']): ReportMailSender[] {
  const byKey = new Map<string, { name: string; serviceId: string | null; addresses: number; messages: number; pass: number }>();
  for (const row of sources) {
    const service = row.serviceId ? sendingServiceById(row.serviceId) : undefined;
    const [key, name] = service ? [`service:${service.id}`, service.name] : row.host ? [`host:${row.host}`, row.host] : [`ip:${row.ip}`, row.ip];
    const sender = byKey.get(key) ?? { name, serviceId: service?.id ?? null, addresses: 0, messages: 0, pass: 0 };
    sender.addresses += 1;
    sender.messages += row.messages;
    sender.pass += row.pass;
    byKey.set(key, sender);
  }
  return [...byKey.values()]
    .sort((a, b) => b.messages - a.messages || a.name.localeCompare(b.name))
    .map((s) => ({ name: s.name, serviceId: s.serviceId, addresses: s.addresses, messages: s.messages, dmarcPass: share(s.pass, s.messages) }));
}

function policyOf(policy: SourceMailFlow['policy']): ReportMailFlow['policy'] {
  if (!policy) return null;
  const published = isRecord(policy.published) ? policy.published : {};
  const parsePolicy = (v: unknown) => dmarcPolicySchema.safeParse(typeof v === 'string' ? v.toLowerCase() : null).data ?? null;
  const pct = num(published.pct);
  return {
    p: parsePolicy(published.p),
    sp: parsePolicy(published.sp),
    pct: pct !== null && Number.isInteger(pct) && pct >= 0 && pct <= 100 ? pct : null,
    testing: published.testing === true,
    reporter: policy.reporter,
    reportedAt: policy.periodEnd.toISOString(),
  };
}

/** The mail-flow section; a summary keeps the totals only. */
function mailFlowOf(source: SourceMailFlow, full: boolean): ReportMailFlow {
  const { pass, fail, forwarded } = source.totals;
  const messages = pass + fail + forwarded;
  const senders = full ? sendersOf(source.sources) : [];
  return {
    from: source.window.from,
    to: source.window.to,
    reports: source.reports.aggregate,
    messages,
    dmarcPass: pass,
    dmarcFail: fail,
    forwarded,
    passRate: share(pass, messages),
    senderCount: senders.length,
    senders: senders.slice(0, REPORT_MAIL_FLOW_SENDERS),
    policy: full ? policyOf(source.policy) : null,
    tls:
      full && source.tls
        ? {
            reports: source.tls.reports,
            successfulSessions: source.tls.successful,
            failedSessions: source.tls.failed,
            failures: [...source.tls.failures].sort((a, b) => b.sessions - a.sessions || a.resultType.localeCompare(b.resultType)).slice(0, REPORT_TLS_FAILURE_TYPES),
          }
        : null,
  };
}

export function buildReport(source: ReportSource): ReportDocument {
  const checks = source.scan ? reportChecks(source) : [];
  const actions = actionsOf(source, checks);
  const rep = source.reputation;
  const trend = rep && (rep.trend === 'improving' || rep.trend === 'declining' || rep.trend === 'stable') ? rep.trend : null;
  const full = source.kind === 'full';
  return {
    $schema: REPORT_SCHEMA_ID,
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: source.kind,
    reportId: source.reportId,
    reportType: source.reportType,
    generatedAt: source.generatedAt.toISOString(),
    domain: { id: source.domain.id, name: source.domain.name },
    scan: source.scan ? { id: source.scan.id, completedAt: source.scan.completedAt.toISOString(), trigger: source.scan.trigger } : null,
    overall: {
      status: source.domain.status,
      score: rep?.score ?? null,
      label: rep ? reputationDetailLabel(rep.score) : null,
      trend,
      previousScore: rep?.previousScore ?? null,
      breakdown: rep ? breakdownOf(rep.factors) : null,
    },
    summary: summaryOf(source, checks, actions),
    checks: full ? checks : [],
    blacklist: full && source.scan ? blacklistOf(source) : null,
    trends: full ? { days: source.windowDays, points: trendPoints(source), dnsChanges: dnsChangesOf(source), scansInWindow: source.scansInWindow } : null,
    actions: full ? actions : actions.slice(0, SUMMARY_ACTION_COUNT),
    mailFlow: source.mailFlow ? mailFlowOf(source.mailFlow, full) : null,
    // Whole in a summary too (the JSON download); the summary prints only its counts.
    senderRequirements: source.senderRequirements,
  };
}
