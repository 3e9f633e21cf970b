import {
  features,
  generateReportJobId,
  JobName,
  planRules,
  REPORT_FAILED,
  REPORT_NOT_FOUND,
  REPORT_NOT_READY,
  reportFileName,
  reportFormatMedia,
  reportQuotaMessage,
  REPORTS_PLAN_MESSAGE,
  reportsGeneratedMessage,
  type GenerateReportsAnswer,
  type GetReportAnswer,
  type PlanType,
  type Report,
  type ReportData,
  type ReportFormat,
  type ReportType,
} from '@sendwell/contracts';
import { conflict, forbidden, notFound, planLimit, type AuthUser, type Logger, type Queues } from '@sendwell/server-kit';
import { renderHtml } from '../render/html/render-html.js';
import { renderText } from '../render/text/render-text.js';
import type { ReportRepository, ReportRow } from '../repositories/report.repository.js';
import type { ReportSourceRepository } from '../repositories/report-source.repository.js';

export interface ReportFile {
  body: Buffer | string;
  contentType: string;
  fileName: string;
}

type DomainRef = { id?: number | undefined; name?: string | undefined };

export function toReport(row: ReportRow): Report {
  return {
    id: row.id,
    userId: row.userId,
    domainId: row.domainId,
    type: row.type,
    status: row.status,
    data: row.data as ReportData,
    isPurchased: row.isPurchased,
    purchaseId: row.purchaseId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The report calls: plan and quota rules, ownership, and downloads rendered from the stored document. */
export class ReportService {
  constructor(
    private readonly reports: ReportRepository,
    private readonly source: ReportSourceRepository,
    private readonly queues: Queues,
    private readonly appUrl: string,
    private readonly logger: Logger,
  ) {}

  private requirePaid(user: AuthUser): number {
    if (!features.reports(user.planType)) throw forbidden(REPORTS_PLAN_MESSAGE, { requiresUpgrade: true });
    return planRules[user.planType as PlanType].reportQuota ?? 0;
  }

  async list(user: AuthUser): Promise<Report[]> {
    this.requirePaid(user);
    return (await this.reports.listByUser(user.id)).map(toReport);
  }

  private async owned(user: AuthUser, id: number): Promise<ReportRow> {
    const row = await this.reports.findForUser(id, user.id);
    if (!row) throw notFound(REPORT_NOT_FOUND);
    return row;
  }

  async get(user: AuthUser, id: number): Promise<GetReportAnswer> {
    this.requirePaid(user);
    const row = await this.owned(user, id);
    const stored = row.status === 'completed' ? await this.reports.document(id) : null;
    return { ...toReport(row), document: stored?.document ?? null };
  }

  async generate(user: AuthUser, body: { domains: DomainRef[]; type: 'full' | 'summary' }): Promise<GenerateReportsAnswer> {
    const quota = this.requirePaid(user);
    const owned = await this.source.ownedActiveDomains(user.id, body.domains);
    const byId = new Map(owned.map((d) => [d.id, d]));
    const byName = new Map(owned.map((d) => [d.name, d]));
    const accepted = new Map<number, (typeof owned)[number]>();
    const refused: GenerateReportsAnswer['refused'] = [];
    for (const ref of body.domains) {
      const domain = ref.id !== undefined ? byId.get(ref.id) : ref.name ? byName.get(ref.name) : undefined;
      // Another user's domain reads as not found: existence is not disclosed.
      if (!domain) refused.push({ domain: ref.name ?? String(ref.id), reason: 'not_found', message: 'Domain not found' });
      else accepted.set(domain.id, domain);
    }
    const type: ReportType = body.type;
    const wanted = [...accepted.values()].map((d) => ({
      userId: user.id,
      domainId: d.id,
      type,
      data: { domainName: d.name, summary: `${type === 'full' ? 'Full' : 'Summary'} report for ${d.name}, being generated.`, score: null },
    }));
    const { inserted, used } = wanted.length ? await this.reports.insertWithinQuota(user.id, wanted, quota) : { inserted: [], used: await this.reports.countByUser(user.id) };
    for (const d of wanted.slice(inserted.length)) {
      refused.push({ domain: d.data.domainName, reason: 'quota', message: reportQuotaMessage(quota) });
    }
    if (inserted.length === 0 && wanted.length > 0) throw planLimit(reportQuotaMessage(quota), { details: { used, quota } });
    if (inserted.length === 0) throw notFound('None of these domains were found among your active domains.');
    try {
      await this.queues.addBulk(
        JobName.GenerateReport,
        inserted.map((r) => ({ data: { reportId: r.id }, opts: { jobId: generateReportJobId(r.id) } })),
      );
    } catch (error) {
      // The rows stay pending and the hourly schedule queues them again; the user is told to wait, not to retry.
      this.logger.warn({ err: error }, 'report jobs not queued; the schedule will pick them up');
    }
    return { message: reportsGeneratedMessage(inserted.length, refused.length), reports: inserted.map(toReport), refused, used, quota };
  }

  async delete(user: AuthUser, id: number): Promise<void> {
    this.requirePaid(user);
    if (!(await this.reports.delete(id, user.id))) throw notFound(REPORT_NOT_FOUND);
  }

  async download(user: AuthUser, id: number, format: ReportFormat): Promise<ReportFile> {
    this.requirePaid(user);
    const row = await this.owned(user, id);
    if (row.status === 'failed') throw conflict(REPORT_FAILED);
    if (row.status !== 'completed') throw conflict(REPORT_NOT_READY, { retryAfterSeconds: 2 });
    const domainName = (row.data as ReportData).domainName;
    const media = reportFormatMedia[format];
    const fileName = reportFileName(domainName, row.createdAt, format);
    if (format === 'pdf') {
      const pdf = await this.reports.pdf(id);
      // Stored with the row's completion in one transaction, so absent only if someone removed it by hand.
      if (!pdf) throw conflict(REPORT_FAILED);
      return { body: pdf, contentType: media.contentType, fileName };
    }
    const stored = await this.reports.document(id);
    if (!stored) throw conflict(REPORT_FAILED);
    const body =
      format === 'json'
        ? `${JSON.stringify(stored.document, null, 2)}\n`
        : format === 'html'
          ? renderHtml(stored.document, { appUrl: this.appUrl })
          : renderText(stored.document, { appUrl: this.appUrl });
    return { body, contentType: media.contentType, fileName };
  }
}

