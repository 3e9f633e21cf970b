import { REPORT_MAIL_FLOW_DAYS, REPORT_TREND_WINDOWS, features, type ReportDocument, type ReportKind } from '@sendwell/contracts';
import { buildReport } from '../model/build-report.js';
import type { MailFlowSourceRepository } from '../repositories/mail-flow-source.repository.js';
import type { SenderRequirementsSourceRepository } from '../repositories/sender-requirements-source.repository.js';
import type { ReportSourceRepository, SourceDomain } from '../repositories/report-source.repository.js';

const DAY_MS = 86_400_000;
/** The longest trend window; the 30-day charts are its tail. */
export const HISTORY_DAYS = Math.max(...REPORT_TREND_WINDOWS);

/** Reads a domain's stored results and builds its document. */
export class ReportBuilder {
  constructor(
    private readonly source: ReportSourceRepository,
    private readonly mail: MailFlowSourceRepository,
    private readonly requirements: SenderRequirementsSourceRepository,
  ) {}

  async build(report: { id: number; type: string }, domain: SourceDomain, kind: ReportKind, now = new Date()): Promise<ReportDocument> {
    // The window starts at the first day drawn (midnight UTC), so the oldest point is a whole day.
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const since = new Date(today - (HISTORY_DAYS - 1) * DAY_MS);
    // Mail flow: the last 30 UTC days, today included, the same days as the 30-day trend window.
    const mailWindow = { from: new Date(today - (REPORT_MAIL_FLOW_DAYS - 1) * DAY_MS).toISOString().slice(0, 10), to: new Date(today).toISOString().slice(0, 10) };
    const [scan, plan] = await Promise.all([this.source.latestScan(domain.id), this.mail.planOf(domain.userId)]);
    const [checks, reputation, history, dnsChanges, mailFlow, senderRequirements] = await Promise.all([
      scan ? this.source.checksOfScan(scan.id) : Promise.resolve([]),
      this.source.latestReputation(domain.id),
      kind === 'full' ? this.source.days(domain.id, since) : Promise.resolve({ days: [], scans: 0 }),
      kind === 'full' ? this.source.dnsChanges(domain.id, since) : Promise.resolve([]),
      // Read at generation: a plan without mail flow gets no section, whatever is stored.
      plan !== null && features.mailFlow(plan) ? this.mail.mailFlow(domain.id, mailWindow, kind === 'full') : Promise.resolve(null),
      // Likewise the sender requirements: the kept verdict, only on a plan that has them.
      plan !== null && features.senderRequirements(plan) ? this.requirements.latest(domain.id) : Promise.resolve(null),
    ]);
    return buildReport({
      reportId: report.id,
      reportType: report.type,
      kind,
      generatedAt: now,
      domain: { id: domain.id, name: domain.name, status: domain.status },
      scan,
      checks,
      reputation: reputation ?? null,
      windowDays: HISTORY_DAYS,
      days: history.days,
      scansInWindow: history.scans,
      dnsChanges,
      mailFlow,
      senderRequirements,
    });
  }
}
