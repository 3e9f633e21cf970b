import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import type { AlertType, SSL_EXPIRY_THRESHOLDS } from './alert-types.js';
import { alertTypes } from './alert-types.js';
export { AlertType, alertTypes, alertTypeLabels, MAIL_FLOW_ALERT_THRESHOLDS, SSL_EXPIRY_THRESHOLDS } from './alert-types.js';

export const alertSeverities = ['critical', 'high', 'medium', 'low'] as const;
export const alertSeveritySchema = z.enum(alertSeverities);
export type AlertSeverity = z.infer<typeof alertSeveritySchema>;

export type AlertType = (typeof AlertType)[keyof typeof AlertType];
export const alertTypeSchema = z.enum(alertTypes, { error: 'Unknown alert type' });

/**
 * An alert is delivered when raised and again when resolved (a delisting, a renewed certificate, a
 * record back in order): PagerDuty resolves its incident, webhooks get `alert.resolved`.
 */
export const alertEvents = ['raised', 'resolved'] as const;
export const alertEventSchema = z.enum(alertEvents);
export type AlertEvent = z.infer<typeof alertEventSchema>;

export const alertSchema = z.object({
  id: idSchema,
  domainId: idSchema,
  userId: idSchema,
  type: z.string(),
  severity: alertSeveritySchema,
  title: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
  checkId: idSchema.nullable(),
  isRead: z.boolean(),
  isSent: z.boolean(),
  resolvedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  /** Joined for the bell, which names the domain. */
  domainName: z.string(),
});
export type Alert = z.infer<typeof alertSchema>;

/** The severity each type is raised with; a few rules refine it (SSL by days left, DNS by which records). */
export const alertTypeSeverity: Record<AlertType, AlertSeverity> = {
  blacklist_listed: 'high',
  status_change: 'medium',
  ssl_expiring: 'medium',
  ssl_security_issue: 'critical',
  dns_change: 'medium',
  dkim_missing: 'high',
  spf_broken: 'high',
  dmarc_missing: 'high',
  mail_new_sender: 'medium',
  mail_failure_spike: 'high',
  mail_reports_stopped: 'medium',
  tls_rpt_failures: 'high',
  sender_requirement_unmet: 'high',
};

export type SslExpiryThreshold = (typeof SSL_EXPIRY_THRESHOLDS)[number];
export const sslExpirySeverity: Record<SslExpiryThreshold, AlertSeverity> = { 30: 'medium', 14: 'high', 7: 'high', 1: 'critical' };
