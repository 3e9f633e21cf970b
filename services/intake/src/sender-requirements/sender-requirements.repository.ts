import { AlertType, mailTestAnalysisSchema, senderRequirementsSchema, type SenderRequirements } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';
import { ScanResults } from '@sendwell/scan-engine';
import type { DnsEvidence, MailTestEvidence } from './evidence.js';

const objectOf = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const stringOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export interface OpenRequirementAlert {
  id: number;
  conditionKey: string;
}

/** The reads the verdict is judged from, and the kept verdict; takes a transaction for the locked work. */
export class SenderRequirementsRepository {
  constructor(private readonly db: Executor) {}

  /** The latest completed scan and the essentials of its SPF, DKIM and DMARC checks, or null. */
  async latestScan(domainId: number): Promise<DnsEvidence | null> {
    const scan = await this.db
      .selectFrom('scans')
      .select(['id', 'completedAt', 'createdAt'])
      .where('domainId', '=', domainId)
      .where('status', '=', 'completed')
      .orderBy('createdAt', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!scan) return null;
    const checks = await new ScanResults(this.db).checksOfScan(scan.id, ['spf', 'dkim', 'dmarc']);
    const check = (type: string) => {
      const row = checks.find((c) => c.type === type);
      return row ? { status: row.status, message: row.message, value: row.value, details: objectOf(row.details) } : null;
    };
    const spf = check('spf');
    const dkim = check('dkim');
    const dmarc = check('dmarc');
    const keys = (details: Record<string, unknown>) =>
      (Array.isArray(details.records) ? details.records : [])
        .map(objectOf)
        .filter((r) => r.usable !== false && r.revoked !== true && typeof r.selector === 'string')
        .map((r) => r.selector as string);
    const policyOf = (details: Record<string, unknown>, record: string | null) => stringOf(details.policy) ?? /(?:^|;)\s*p\s*=\s*([a-z]+)/i.exec(record ?? '')?.[1]?.toLowerCase() ?? null;
    return {
      scanId: scan.id,
      completedAt: scan.completedAt ?? scan.createdAt,
      spf: spf && { status: spf.status, message: spf.message, record: stringOf(spf.details.record) ?? spf.value },
      dkim: dkim && { status: dkim.status, message: dkim.message, keys: [...new Set(keys(dkim.details))] },
      dmarc: dmarc && {
        status: dmarc.status,
        message: dmarc.message,
        record: stringOf(dmarc.details.record) ?? dmarc.value,
        policy: policyOf(dmarc.details, stringOf(dmarc.details.record) ?? dmarc.value),
        inherited: dmarc.details.source === 'organizational',
      },
    };
  }

  /** The domain's latest analysed test message completed since `since`, or null (an analysis not in the contract's shape is none). */
  async latestTest(domainId: number, since: Date): Promise<MailTestEvidence | null> {
    const row = await this.db
      .selectFrom('inboxPlacementTests')
      .select(['id', 'receivedAt', 'completedAt', 'results'])
      .where('domainId', '=', domainId)
      .where('status', '=', 'done')
      .where('completedAt', '>=', since)
      .orderBy('completedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return null;
    const analysis = mailTestAnalysisSchema.safeParse(row.results);
    if (!analysis.success) return null;
    return { id: row.id, receivedAt: row.receivedAt ?? row.completedAt ?? since, analysis: analysis.data };
  }

  /**
   * The kept verdict, null when none (or one no longer in the contract's shape: judged afresh). Read as
   * text: the camel-case plugin would rename the verdict's own snake_case keys (mail_flow, not_measurable).
   */
  async storedVerdict(domainId: number): Promise<SenderRequirements | null> {
    const row = await this.db.selectFrom('senderRequirementVerdicts').select(sql<string>`verdict::text`.as('verdict')).where('domainId', '=', domainId).executeTakeFirst();
    if (!row) return null;
    const parsed = senderRequirementsSchema.safeParse(JSON.parse(row.verdict));
    return parsed.success ? parsed.data : null;
  }

  async storeVerdict(verdict: SenderRequirements): Promise<void> {
    const evaluatedAt = new Date(verdict.evaluatedAt);
    await this.db
      .insertInto('senderRequirementVerdicts')
      .values({ domainId: verdict.domainId, verdict: JSON.stringify(verdict), evaluatedAt })
      .onConflict((oc) => oc.column('domainId').doUpdateSet({ verdict: JSON.stringify(verdict), evaluatedAt }))
      .execute();
  }

  async openAlerts(domainId: number): Promise<OpenRequirementAlert[]> {
    const rows = await this.db
      .selectFrom('domainAlerts')
      .select(['id', 'conditionKey'])
      .where('domainId', '=', domainId)
      .where('type', '=', AlertType.SenderRequirementUnmet)
      .where('resolvedAt', 'is', null)
      .where('conditionKey', 'is not', null)
      .execute();
    return rows.map((r) => ({ id: r.id, conditionKey: r.conditionKey as string }));
  }
}
