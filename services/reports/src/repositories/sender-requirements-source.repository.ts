/**
 * Reads the sender requirements verdict the intake keeps per domain (sender_requirement_verdicts):
 * the latest one, as the contract's SenderRequirements. A stored verdict the contract does not accept
 * (written by an older or newer intake) is no verdict: the report goes without the section and the log
 * says why.
 */
import { senderRequirementsSchema, type SenderRequirements } from '@sendwell/contracts';
import { sql, type Database } from '@sendwell/db';
import type { Logger } from '@sendwell/server-kit';

export class SenderRequirementsSourceRepository {
  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
  ) {}

  async latest(domainId: number): Promise<SenderRequirements | null> {
    // Read as text: the camel-case plugin would rename the JSON's own keys (mail_flow, not_measurable).
    const row = await this.db
      .selectFrom('senderRequirementVerdicts')
      .select(sql<string>`verdict::text`.as('verdict'))
      .where('domainId', '=', domainId)
      .executeTakeFirst();
    if (!row) return null;
    const parsed = senderRequirementsSchema.safeParse(JSON.parse(row.verdict));
    if (!parsed.success) {
      this.logger.warn({ domainId, issues: parsed.error.issues.slice(0, 5) }, 'stored sender requirements verdict does not match the contract; the report goes without it');
      return null;
    }
    return parsed.data;
  }
}
