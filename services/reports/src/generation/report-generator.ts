import { reportKindSchema, type ReportData, type ReportDocument } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import type { Logger, Mailer } from '@sendwell/server-kit';
import type { ReportRepository } from '../repositories/report.repository.js';
import type { ReportSourceRepository } from '../repositories/report-source.repository.js';
import type { ReportBuilder } from './report-builder.js';
import { automatedReportMail } from './report-mail.js';

export const DOMAIN_GONE = 'The domain of this report no longer exists.';
export const GENERATION_FAILED = 'The report could not be generated. Delete it and generate it again.';

/** Renders a document's PDF (on the pool's threads in the service; inline in tests that want to). */
export type PdfRenderer = (document: ReportDocument, options: { appUrl?: string }) => Promise<Buffer>;

export type GenerateOutcome = 'built' | 'mailed' | 'built and mailed' | 'nothing to do' | 'domain gone';

/**
 * Builds one report: document from stored results, PDF, both stored with the row completed in one
 * transaction; then, for an automated report, the owner's mail. Safe to run again at any point: a
 * completed report is not rebuilt, and the mail goes out until it is recorded as sent.
 */
export class ReportGenerator {
  constructor(
    private readonly db: Database,
    private readonly reports: ReportRepository,
    private readonly source: ReportSourceRepository,
    private readonly builder: ReportBuilder,
    private readonly renderPdf: PdfRenderer,
    private readonly mailer: Mailer,
    private readonly appUrl: string,
    private readonly logger: Logger,
  ) {}

  async generate(reportId: number): Promise<GenerateOutcome> {
    const row = await this.reports.find(reportId);
    if (!row) return 'nothing to do';
    let built = false;
    if (row.status !== 'completed') {
      const claimed = await this.reports.claim(reportId);
      if (!claimed) return 'nothing to do';
      const domain = claimed.domainId === null ? undefined : await this.source.domain(claimed.domainId);
      const data = claimed.data as ReportData;
      if (!domain) {
        await this.reports.fail(reportId, { ...data, error: DOMAIN_GONE });
        return 'domain gone';
      }
      // Automated reports are full; a requested one is what its type says.
      const kind = reportKindSchema.catch('full').parse(claimed.type);
      const document = await this.builder.build(claimed, domain, kind);
      const pdf = await this.renderPdf(document, { appUrl: this.appUrl });
      await this.reports.complete(reportId, document, pdf, { domainName: domain.name, summary: document.summary, score: document.overall.score });
      built = true;
    }
    if (row.type === 'automated' && row.mailedAt === null && (await this.mail(reportId))) return built ? 'built and mailed' : 'mailed';
    return built ? 'built' : 'nothing to do';
  }

  /** Marks a report failed once its retries are spent, so the screen stops showing progress. */
  async failed(reportId: number): Promise<void> {
    const row = await this.reports.find(reportId);
    if (row && row.status !== 'completed') await this.reports.fail(reportId, { ...(row.data as ReportData), error: GENERATION_FAILED });
  }

  /** Mails an automated report to its owner unless they turned report mails off; true when sent. */
  private async mail(reportId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('reports as r')
      .innerJoin('users as u', 'u.id', 'r.userId')
      .leftJoin('notificationPreferences as p', 'p.userId', 'r.userId')
      .select(['u.email', 'p.reportEmails', 'r.createdAt'])
      .where('r.id', '=', reportId)
      .executeTakeFirst();
    const stored = await this.reports.document(reportId);
    if (!row || !stored?.pdf) return false;
    if (row.reportEmails === false) {
      await this.reports.markMailed(reportId);
      this.logger.info({ reportId }, 'automated report not mailed: the owner turned report mails off');
      return false;
    }
    await this.mailer.send(automatedReportMail(row.email, stored.document, stored.pdf, row.createdAt, this.appUrl));
    await this.reports.markMailed(reportId);
    return true;
  }
}
