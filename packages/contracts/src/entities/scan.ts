import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import { domainStatusSchema } from './domain.js';

export const scanIdSchema = z.uuid({ error: 'Invalid scan id' });

/** What asked for a scan: the scheduler, the user, a new signup, or the blacklist-only re-check. */
export const scanTriggers = ['scheduled', 'manual', 'signup', 'blacklist'] as const;
export const scanTriggerSchema = z.enum(scanTriggers);
export type ScanTrigger = z.infer<typeof scanTriggerSchema>;

export const scanStatuses = ['queued', 'running', 'completed', 'failed'] as const;
export const scanStatusSchema = z.enum(scanStatuses);
export type ScanStatus = z.infer<typeof scanStatusSchema>;

/** One scan run; its checks share its id. */
export const scanSchema = z.object({
  id: scanIdSchema,
  domainId: idSchema,
  trigger: scanTriggerSchema,
  status: scanStatusSchema,
  /** The domain status this scan concluded; null until it completes. */
  overallStatus: domainStatusSchema.nullable(),
  createdAt: isoDateTime,
  startedAt: isoDateTime.nullable(),
  completedAt: isoDateTime.nullable(),
  /** Why a failed scan failed, safe to show. */
  error: z.string().nullable(),
});
export type Scan = z.infer<typeof scanSchema>;
