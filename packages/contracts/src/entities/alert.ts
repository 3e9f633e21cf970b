import { z } from 'zod';
import { idSchema, isoDateTime } from '../common.js';

export const alertSeverities = ['critical', 'high', 'medium', 'low'] as const;
export const alertSeveritySchema = z.enum(alertSeverities);
export type AlertSeverity = z.infer<typeof alertSeveritySchema>;

/** Alert types the services raise; stored as text because part 1 §3 says "others" exist. */
export const AlertType = {
  SslExpiring: 'ssl_expiring',
  SslSecurityIssue: 'ssl_security_issue',
  DnsChange: 'dns_change',
  BlacklistListed: 'blacklist_listed',
  StatusChange: 'status_change',
} as const;
export type AlertType = (typeof AlertType)[keyof typeof AlertType];

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
