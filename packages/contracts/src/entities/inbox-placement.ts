import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';

const rate = z.number().int().min(0).max(100).nullable();

/** One inbox placement test (standard and advanced); no call reads it yet. */
export const inboxPlacementTestSchema = z.object({
  id: idSchema,
  userId: idSchema,
  domainId: idSchema.nullable(),
  testId: z.string(),
  status: z.string(),
  fromEmail: z.string(),
  subject: z.string(),
  htmlContent: z.string().nullable(),
  textContent: z.string().nullable(),
  results: z.record(z.string(), z.unknown()),
  inboxRate: rate,
  spamRate: rate,
  missingRate: rate,
  createdAt: isoDateTime,
  completedAt: isoDateTime.nullable(),
});
export type InboxPlacementTest = z.infer<typeof inboxPlacementTestSchema>;
