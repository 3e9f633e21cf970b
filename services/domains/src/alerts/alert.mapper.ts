import type { Alert, AlertSeverity } from '@sendwell/contracts';
import type { AlertRow } from './alert.repository.js';

const asObject = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export function toAlertDto(row: AlertRow): Alert {
  return {
    id: row.id,
    domainId: row.domainId,
    userId: row.userId,
    type: row.type,
    // The column's check constraint allows only the four severities.
    severity: row.severity as AlertSeverity,
    title: row.title,
    message: row.message,
    details: asObject(row.details),
    checkId: row.checkId,
    isRead: row.isRead,
    isSent: row.isSent,
    resolvedAt: row.resolvedAt ? row.resolvedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    domainName: row.domainName,
  };
}
