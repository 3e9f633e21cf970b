import { gunzipSync } from 'node:zlib';
import {
  DOMAIN_NOT_FOUND,
  MAIL_FLOW_PLAN_MESSAGE,
  REPORT_FILE_CONTENT_TYPES,
  SENDING_SERVICES,
  features,
  mailFlowRetentionDays,
  type MailFlow,
  type MailFlowWindowQuery,
  type ReceivedReports,
  type ReportAddresses,
  type TlsReports,
} from '@sendwell/contracts';
import { forbidden, notFound } from '@sendwell/server-kit';
import { issuedAddresses, recordsToPublish } from '../addresses/report-address.js';
import type { ReportDomain, ReportDomainRepository } from '../addresses/report-domain.repository.js';
import type { Deps } from '../deps.js';
import { MailFlowRepository } from './mail-flow.repository.js';
import { policyReadiness } from './readiness.js';
import { categorise, groupSenders, MAX_SENDERS, senderFixes, toMailSender } from './senders.js';
import { daysOf, mailFlowWindow } from './window.js';

export interface MailFlowUser {
  id: number;
  planType: string;
}

export const MAX_LISTED_REPORTS = 200;
export const MAX_LISTED_FAILURE_REPORTS = 50;
export const REPORT_NOT_FOUND = 'Report file not found';

const FORWARDER_IDS = SENDING_SERVICES.filter((s) => s.kind === 'forwarder').map((s) => s.id);

/** A report file to download: gunzipped, with what to call it. */
export interface ReportFile {
  contentType: string;
  fileName: string;
  body: Buffer;
}

/** The domain's mail-flow reads and settings. Every call: plan first, then ownership. */
export class MailFlowService {
  private readonly repo: MailFlowRepository;
  private readonly domains: ReportDomainRepository;

  constructor(private readonly deps: Pick<Deps, 'db' | 'env' | 'reportDomains'>) {
    this.repo = new MailFlowRepository(deps.db);
    this.domains = deps.reportDomains;
  }

  /** The user's domain, when their plan has mail flow (403) and the domain is theirs (404 otherwise, even another user's). */
  async ownedDomain(user: MailFlowUser, domainId: number): Promise<ReportDomain> {
    if (!features.mailFlow(user.planType)) throw forbidden(MAIL_FLOW_PLAN_MESSAGE, { requiresUpgrade: true });
    const domain = await this.domains.findOwned(user.id, domainId);
    if (!domain) throw notFound(DOMAIN_NOT_FOUND);
    return domain;
  }

  private async dmarcRecordToPublish(domain: ReportDomain, presentDmarc: string | null) {
    const addresses = issuedAddresses(domain.reportToken, this.deps.env.INTAKE_DOMAIN, this.deps.env.INTAKE_PUBLIC_URL);
    return { addresses, records: recordsToPublish(domain.name, addresses, presentDmarc, domain.failureReports) };
  }

  async reportAddresses(user: MailFlowUser, domainId: number): Promise<ReportAddresses> {
    const domain = await this.ownedDomain(user, domainId);
    const [scanned, firstReportAt] = await Promise.all([this.repo.scannedRecords(domain.id), this.repo.firstReportAt(domain.id)]);
    const { addresses, records } = await this.dmarcRecordToPublish(domain, scanned.dmarc);
    return {
      domain: domain.name,
      ...addresses,
      records,
      failureReports: domain.failureReports,
      firstReportAt: firstReportAt?.toISOString() ?? null,
    };
  }

  async saveSettings(user: MailFlowUser, domainId: number, failureReports: boolean): Promise<{ failureReports: boolean }> {
    const domain = await this.ownedDomain(user, domainId);
    await this.repo.saveSettings(domain.id, failureReports);
    return { failureReports };
  }

  async mailFlow(user: MailFlowUser, domainId: number, query: MailFlowWindowQuery, now = new Date()): Promise<MailFlow> {
    const domain = await this.ownedDomain(user, domainId);
    const retentionDays = mailFlowRetentionDays(user.planType);
    const window = mailFlowWindow(query, retentionDays, now);
    const [sources, daily, reports, published, scanned] = await Promise.all([
      this.repo.sources(domain.id, window),
      this.repo.daily(domain.id, window, FORWARDER_IDS),
      this.repo.reportsInWindow(domain.id, 'aggregate', window),
      this.repo.latestPublishedPolicy(domain.id),
      this.repo.scannedRecords(domain.id),
    ]);

    const byDay = new Map(daily.map((row) => [row.day, row]));
    const totals = { pass: 0, fail: 0, forwarded: 0 };
    for (const row of daily) {
      totals.pass += row.pass;
      totals.fail += row.fail;
      totals.forwarded += row.forwarded;
    }

    // Every sender is classified (readiness counts them all); only the busiest are listed.
    const groups = groupSenders(sources).map((group) => {
      const category = categorise(group);
      return { group, category, fixes: senderFixes(group, category, domain.name, scanned.spf) };
    });
    const authorised = groups.filter((g) => g.category === 'authorised');
    const legitimateMessages = authorised.reduce((sum, g) => sum + g.group.messages, 0);
    const affectedMessages = authorised.reduce((sum, g) => sum + g.group.messages - g.group.pass, 0);
    const { records } = await this.dmarcRecordToPublish(domain, scanned.dmarc);

    return {
      from: window.from,
      to: window.to,
      retentionDays,
      messages: totals.pass + totals.fail + totals.forwarded,
      dmarcPass: totals.pass,
      dmarcFail: totals.fail,
      forwarded: totals.forwarded,
      reports,
      daily: daysOf(window).map((day) => ({ day, pass: byDay.get(day)?.pass ?? 0, fail: byDay.get(day)?.fail ?? 0 })),
      senders: groups.slice(0, MAX_SENDERS).map((g) => toMailSender(g.group, g.category, g.fixes)),
      readiness: policyReadiness({
        published,
        legitimateMessages,
        affectedMessages,
        reportDays: daily.filter((row) => row.pass + row.fail + row.forwarded > 0).length,
        failingSenders: authorised.filter((g) => g.fixes.length > 0).map((g) => g.group.name),
        dmarcRecord: records[0]?.value ?? '',
      }),
    };
  }

  async tlsReports(user: MailFlowUser, domainId: number, query: MailFlowWindowQuery, now = new Date()): Promise<TlsReports> {
    const domain = await this.ownedDomain(user, domainId);
    const window = mailFlowWindow(query, mailFlowRetentionDays(user.planType), now);
    const [reports, daily, failures, policies] = await Promise.all([
      this.repo.reportsInWindow(domain.id, 'tls', window),
      this.repo.tlsDaily(domain.id, window),
      this.repo.tlsFailures(domain.id, window),
      this.repo.tlsPolicies(domain.id, window),
    ]);
    const byDay = new Map(daily.map((row) => [row.day, row]));
    return {
      from: window.from,
      to: window.to,
      reports,
      successfulSessions: daily.reduce((sum, row) => sum + row.successful, 0),
      failedSessions: daily.reduce((sum, row) => sum + row.failed, 0),
      daily: daysOf(window).map((day) => ({ day, successful: byDay.get(day)?.successful ?? 0, failed: byDay.get(day)?.failed ?? 0 })),
      failures,
      policies,
    };
  }

  async receivedReports(user: MailFlowUser, domainId: number): Promise<ReceivedReports> {
    const domain = await this.ownedDomain(user, domainId);
    const [reports, failures] = await Promise.all([this.repo.reports(domain.id, MAX_LISTED_REPORTS), this.repo.failureReports(domain.id, MAX_LISTED_FAILURE_REPORTS)]);
    return {
      reports: reports.map((r) => ({
        id: r.id,
        kind: r.kind,
        reporter: r.orgName,
        reporterEmail: r.orgEmail,
        reportId: r.reportId,
        begin: r.periodBegin.toISOString(),
        end: r.periodEnd.toISOString(),
        records: r.records,
        messages: r.messages,
        via: r.channel,
        receivedAt: r.receivedAt.toISOString(),
        sourceUrl: r.hasSource ? `/api/domains/${domain.id}/dmarc-reports/${r.id}/source` : null,
      })),
      failureReports: failures.map((f) => ({
        id: f.id,
        receivedAt: f.receivedAt.toISOString(),
        arrivalDate: f.arrivalDate?.toISOString() ?? null,
        sourceIp: f.sourceIp,
        authFailure: f.authFailure,
        report: f.report && typeof f.report === 'object' && !Array.isArray(f.report) ? f.report : {},
      })),
    };
  }

  async reportFile(user: MailFlowUser, domainId: number, reportId: number): Promise<ReportFile> {
    const domain = await this.ownedDomain(user, domainId);
    const source = await this.repo.source(domain.id, reportId);
    if (!source) throw notFound(REPORT_NOT_FOUND);
    // The type came from the sender: only a report type goes out as itself, anything else as bytes.
    const base = source.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    const contentType = (REPORT_FILE_CONTENT_TYPES as readonly string[]).includes(base) ? base : 'application/octet-stream';
    return { contentType, fileName: reportFileName(source), body: gunzipSync(source.sourceGz) };
  }
}

const EXTENSIONS: Array<[RegExp, string]> = [
  [/xml/, 'xml'],
  [/json/, 'json'],
  [/rfc822/, 'eml'],
  [/zip/, 'zip'],
  [/gzip/, 'gz'],
];

/** A file name safe in a header whatever the reporter called itself: letters, digits, dot, dash. */
export function reportFileName(source: { kind: string; orgName: string; reportId: string; contentType: string }): string {
  const safe = (text: string) => text.replace(/[^\w.-]+/g, '-').replaceAll('_', '-').slice(0, 80);
  const ext = EXTENSIONS.find(([pattern]) => pattern.test(source.contentType.toLowerCase()))?.[1] ?? 'bin';
  return `${source.kind === 'tls' ? 'tls' : 'dmarc'}-${safe(source.orgName)}-${safe(source.reportId)}.${ext}`;
}
