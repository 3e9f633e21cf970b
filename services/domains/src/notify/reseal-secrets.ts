import type { Executor } from '@sendwell/db';
import { SealedSecretRepository } from './sealed-secret.repository.js';
import { sealedFor, type SealBinding, type SecretBox } from './secret-box.js';

/** What `secrets:reseal` found in one table. */
export interface ResealCounts {
  scanned: number;
  /** Sealed again under the newest key, with its binding. */
  resealed: number;
  /** Already under the newest key (or saved afresh while the command ran). */
  current: number;
  /** Ids of rows no configured key opens (with their binding): the old keys must stay until they are fixed. */
  unreadable: number[];
}

interface SealedColumn {
  batchAfter(afterId: number, limit: number): Promise<{ id: number; sealed: string; binding: SealBinding }[]>;
  replace(id: number, from: string, to: string): Promise<boolean>;
}

/**
 * Re-seals every integration config and webhook secret under the newest key, bound to its owner and
 * purpose, a batch at a time. Idempotent: values already current are only opened (so the counts prove
 * every value still opens) and left as they are. When `unreadable` is empty everywhere, keys other
 * than the newest can be removed.
 */
export async function resealSecrets(db: Executor, box: SecretBox, batchSize = 500): Promise<{ integrations: ResealCounts; webhooks: ResealCounts }> {
  const repo = new SealedSecretRepository(db);
  const integrations = await resealColumn(box, batchSize, {
    batchAfter: async (afterId, limit) => (await repo.integrationConfigsAfter(afterId, limit)).map((r) => ({ ...r, binding: sealedFor.integration(r.userId, r.service) })),
    replace: (id, from, to) => repo.replaceIntegrationConfig(id, from, to),
  });
  const webhooks = await resealColumn(box, batchSize, {
    batchAfter: async (afterId, limit) => (await repo.webhookSecretsAfter(afterId, limit)).map((r) => ({ ...r, binding: sealedFor.webhookSecret(r.userId) })),
    replace: (id, from, to) => repo.replaceWebhookSecret(id, from, to),
  });
  return { integrations, webhooks };
}

async function resealColumn(box: SecretBox, batchSize: number, column: SealedColumn): Promise<ResealCounts> {
  const counts: ResealCounts = { scanned: 0, resealed: 0, current: 0, unreadable: [] };
  for (let afterId = 0; ; ) {
    const rows = await column.batchAfter(afterId, batchSize);
    if (rows.length === 0) return counts;
    for (const row of rows) {
      counts.scanned += 1;
      let plain: string;
      try {
        plain = box.open(row.sealed, row.binding);
      } catch {
        counts.unreadable.push(row.id);
        continue;
      }
      if (box.isCurrent(row.sealed) || !(await column.replace(row.id, row.sealed, box.seal(plain, row.binding)))) counts.current += 1;
      else counts.resealed += 1;
    }
    afterId = rows.at(-1)!.id;
  }
}
