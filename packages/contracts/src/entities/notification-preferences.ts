import { z } from '../zod.js';
import { alertTypeSchema } from './alert.js';

/**
 * What a user wants to hear about (Settings → Notifications). Alerts of a muted type are still
 * recorded and listed; only their delivery stops. A digest replaces each alert's email with one
 * mail a day; chat, on-call and webhook channels always deliver as alerts come.
 */
export const notificationPreferencesSchema = z.strictObject({
  emailAlerts: z.boolean({ error: 'emailAlerts must be true or false' }),
  digest: z.boolean({ error: 'digest must be true or false' }),
  mutedTypes: z.array(alertTypeSchema).max(20).transform((types) => [...new Set(types)]),
  reportEmails: z.boolean({ error: 'reportEmails must be true or false' }),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const defaultNotificationPreferences: NotificationPreferences = {
  emailAlerts: true,
  digest: false,
  mutedTypes: [],
  reportEmails: true,
};

/** The hour (UTC) the daily digest is mailed. */
export const ALERT_DIGEST_HOUR_UTC = 7;
