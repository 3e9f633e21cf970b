import { checkTypes, isCoreCheckType, type CheckType, type DnsSnapshot, type DomainProfile } from '@sendwell/contracts';
import { describeSocketError } from '@sendwell/server-kit';
import type { ReportedSelector } from '../checks/dkim/selectors.js';
import { intakeReportAddress } from '../checks/dmarc/report-address.js';
import type { Check, CheckContext, CheckResult, ScanConfig } from '../checks/types.js';
import type { Resolver } from '../dns/types.js';
import { computeReputation, type ReputationScore, type ScanChecks } from '../scoring/reputation.js';
import { takeDnsSnapshot } from './dns-snapshot.js';
import { MAIL_ONLY_CHECKS, judgeNoMailDomain, notApplicable, readDomainProfile, type MailOnlyCheck } from './domain-profile.js';
import { overallStatus, type ScanDomainStatus } from './domain-status.js';

export interface RunScanOptions {
  /** A resolver for this scan only: its cache lives as long as the scan. */
  resolver: Resolver;
  config: ScanConfig;
  checks: Record<CheckType, Check>;
  dkimSelectors: string[];
  /** DKIM selectors seen signing in the domain's DMARC reports (the repository's read), probed too. */
  reportedDkimSelectors?: ReportedSelector[];
  /** The domain's report token: DMARC recommendations then suggest its own report address at the intake. */
  reportToken?: string;
  /**
   * Only the six core checks (the public quick check): the mail checks, which connect to the
   * domain's MX hosts, are not run for an anonymous visitor's domain and come back as `unknown`.
   */
  coreOnly?: boolean;
  /** A check still running after this is abandoned as `unknown` (default 60 s; the service passes SCAN_CHECK_DEADLINE_MS). */
  checkDeadlineMs?: number;
  now?: () => Date;
}

export interface ScanOutcome {
  /** What the domain is for (also in the snapshot): a domain without mail is not judged as a broken mail domain. */
  profile: DomainProfile;
  checks: ScanChecks;
  snapshot: DnsSnapshot;
  status: ScanDomainStatus;
  score: ReputationScore;
  /** DNS questions this scan sent on the network (cache hits excluded). */
  dnsQueries: number;
  durationMs: number;
}

export const CHECK_NOT_RUN = 'CHECK_NOT_RUN';
export const CHECK_FAILED = 'CHECK_FAILED';
export const CHECK_TIMED_OUT = 'CHECK_TIMED_OUT';

/** What a check that threw (or never finished) is recorded as: it could not tell, so `unknown`. */
export function failedCheck(type: CheckType, code: typeof CHECK_FAILED | typeof CHECK_TIMED_OUT, reason: string): CheckResult {
  const message = code === CHECK_TIMED_OUT ? 'The check did not finish in time' : 'The check could not be completed';
  return {
    type,
    status: 'unknown',
    value: null,
    message,
    recommendation: 'It runs again with the next scan.',
    details: { findings: [{ code, severity: 'warning', message: `${message}: ${reason}` }] },
  };
}

function notRun(type: CheckType): CheckResult {
  const message = 'Not run: this scan covers the six core checks only';
  return { type, status: 'unknown', value: null, message, recommendation: null, details: { findings: [{ code: CHECK_NOT_RUN, severity: 'info', message }] } };
}

async function guarded(type: CheckType, check: Check, ctx: CheckContext, deadlineMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve(failedCheck(type, CHECK_TIMED_OUT, `no result after ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    const result = await Promise.race([check(ctx), deadline]);
    // A module answering for another type would overwrite a sibling's row; the registry owns the type.
    return { ...result, type, details: { ...result.details, findings: result.details?.findings ?? [] } };
  } catch (error) {
    // A socket error's text names addresses of our own network (a resolver, a refused port): its code only.
    const reason =
      error instanceof Error ? `${error.name}: ${'code' in error ? describeSocketError(error as NodeJS.ErrnoException) : error.message}` : String(error);
    return failedCheck(type, CHECK_FAILED, reason.slice(0, 300));
  } finally {
    clearTimeout(timer);
  }
}

const isMailOnly = (type: CheckType): type is MailOnlyCheck => (MAIL_ONLY_CHECKS as readonly CheckType[]).includes(type);

/**
 * One full scan of a domain, without the database: its profile first (from the MX and TXT every
 * check reads anyway, so the resolver's cache answers them again), then every check at once (each
 * guarded, so one failing check never fails the scan; what two checks both need, such as the DNSSEC
 * verdicts of the TLSA records, is made once in the scan's memo) and the DNS snapshot, the overall
 * status and the reputation score. A domain without mail skips the mail-only checks, which do not apply to it.
 */
export async function runScan(domain: string, options: RunScanOptions): Promise<ScanOutcome> {
  const now = options.now ?? (() => new Date());
  const started = performance.now();
  const name = domain.trim().toLowerCase().replace(/\.$/, '');
  // One memo per scan: the DNSSEC and DANE checks share its validator (checks/shared/dnssec/scan-validator.ts).
  const ctx: CheckContext = {
    domain: name,
    resolver: options.resolver,
    config: options.config,
    dkimSelectors: options.dkimSelectors,
    ...(options.reportedDkimSelectors ? { reportedDkimSelectors: options.reportedDkimSelectors } : {}),
    ...(options.reportToken ? { reportToken: options.reportToken } : {}),
    memo: {},
  };
  const deadlineMs = options.checkDeadlineMs ?? 60_000;

  const profile = await readDomainProfile(name, options.resolver);
  const run = (type: CheckType): Promise<CheckResult> => {
    if (options.coreOnly && !isCoreCheckType(type)) return Promise.resolve(notRun(type));
    if (profile !== 'mail' && isMailOnly(type)) return Promise.resolve(notApplicable(type, name, profile));
    return guarded(type, options.checks[type], ctx, deadlineMs);
  };
  const [results, snapshot] = await Promise.all([Promise.all(checkTypes.map(run)), takeDnsSnapshot(name, options.resolver, now())]);
  const checks = Object.fromEntries(results.map((r) => [r.type, r])) as ScanChecks;
  if (profile !== 'mail') Object.assign(checks, judgeNoMailDomain(checks.spf, checks.dmarc, intakeReportAddress(ctx)));
  const profiled = { ...snapshot, profile };
  return {
    profile,
    checks,
    snapshot: profiled,
    status: overallStatus(checks, now()),
    score: computeReputation(checks, profiled),
    dnsQueries: options.resolver.queriesSent,
    durationMs: Math.round(performance.now() - started),
  };
}
