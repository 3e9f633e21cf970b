import { z } from 'zod';
import { idSchema, isoDateTime } from '../common.js';

export const alertSeverities = ['critical', 'high', 'medium', 'low'] as const;
export const alertSeveritySchema = z.enum(alertSeverities);
export type AlertSeverity = z.infer<typeof alertSeveritySchema>;

/** Alert types the services raise; stored as text because part 1 §3 says "others" exist. */
export const AlertType = {
  BlacklistListed: 'blacklist_listed',
  StatusChange: 'status_change',
  SslExpiring: 'ssl_expiring',
  SslSecurityIssue: 'ssl_security_issue',
  DnsChange: 'dns_change',
  DkimMissing: 'dkim_missing',
  SpfBroken: 'spf_broken',
  DmarcMissing: 'dmarc_missing',
} as const;
export type AlertType = (typeof AlertType)[keyof typeof AlertType];
export const alertTypes = Object.values(AlertType) as [AlertType, ...AlertType[]];
export const alertTypeSchema = z.enum(alertTypes, { error: 'Unknown alert type' });

/** How the Notifications tab and the messages name each type. */
export const alertTypeLabels: Record<AlertType, { label: string; description: string }> = {
  blacklist_listed: { label: 'Blacklist listings', description: 'A domain or one of its mail servers is listed on a blacklist, or delisted.' },
  status_change: { label: 'Status changes', description: 'A domain turns healthy, warning or critical, or its reputation label changes.' },
  ssl_expiring: { label: 'SSL expiry reminders', description: 'A certificate expires in 30, 14, 7 or 1 days.' },
  ssl_security_issue: { label: 'SSL security issues', description: 'A certificate is expired, for the wrong name, untrusted, or served over an old protocol.' },
  dns_change: { label: 'DNS changes', description: 'MX, SPF, DMARC, name servers or addresses changed since the previous scan.' },
  dkim_missing: { label: 'DKIM missing', description: 'Every DKIM key found before has gone, or a key turned invalid.' },
  spf_broken: { label: 'SPF broken', description: 'The SPF record disappeared or turned invalid.' },
  dmarc_missing: { label: 'DMARC missing', description: 'The DMARC record disappeared or turned invalid.' },
};

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
};

/** Days before expiry at which `ssl_expiring` is raised, each once per certificate. */
export const SSL_EXPIRY_THRESHOLDS = [30, 14, 7, 1] as const;
export type SslExpiryThreshold = (typeof SSL_EXPIRY_THRESHOLDS)[number];
export const sslExpirySeverity: Record<SslExpiryThreshold, AlertSeverity> = { 30: 'medium', 14: 'high', 7: 'high', 1: 'critical' };
