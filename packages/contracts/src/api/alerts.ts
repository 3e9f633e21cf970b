import { z } from '../zod.js';
import { idParamSchema } from '../common.js';
import { alertSchema } from '../entities/alert.js';
import { notificationPreferencesSchema } from '../entities/notification-preferences.js';

/** GET /api/alerts: newest first, at most `limit` (the bell shows 5). */
export const listAlertsQuery = z.object({
  unreadOnly: z
    .enum(['true', 'false'], { error: 'unreadOnly must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
  limit: z.coerce.number({ error: 'Invalid limit' }).int('Invalid limit').min(1, 'Invalid limit').max(100, 'Invalid limit').default(50),
});
export type ListAlertsQuery = z.infer<typeof listAlertsQuery>;
export const listAlertsAnswer = z.array(alertSchema);
export type ListAlertsAnswer = z.infer<typeof listAlertsAnswer>;

/** POST /api/alerts/{id}/mark-read */
export const markAlertReadParams = z.object({ id: idParamSchema });
export type MarkAlertReadParams = z.infer<typeof markAlertReadParams>;
export const markAlertReadAnswer = z.object({ success: z.literal(true), alert: alertSchema });
export type MarkAlertReadAnswer = z.infer<typeof markAlertReadAnswer>;

/** POST /api/alerts/mark-all-read */
export const markAllAlertsReadAnswer = z.object({ success: z.literal(true), updated: z.number().int().nonnegative() });
export type MarkAllAlertsReadAnswer = z.infer<typeof markAllAlertsReadAnswer>;

export const ALERT_NOT_FOUND = 'Alert not found';

/** GET /api/alerts/preferences: the saved preferences, or the defaults. */
export const notificationPreferencesAnswer = notificationPreferencesSchema;
/** PUT /api/alerts/preferences: the whole set, replacing the saved one. */
export const updateNotificationPreferencesBody = notificationPreferencesSchema;
export const updateNotificationPreferencesAnswer = z.object({ success: z.literal(true), preferences: notificationPreferencesSchema });
export type UpdateNotificationPreferencesAnswer = z.infer<typeof updateNotificationPreferencesAnswer>;
