import type { AccountExport, Invoice } from '@sendwell/contracts';
import type { AccountExportRepository } from '../repositories/account-export.repository.js';
import type { UserRow } from '../repositories/user.repository.js';
import { toUserDto } from './user.mapper.js';

type Rows<K extends keyof AccountExportRepository> = Awaited<ReturnType<AccountExportRepository[K]>>;

export interface AccountExportParts {
  user: UserRow;
  domains: Rows<'domains'>;
  scans: Rows<'scanSummaries'>;
  alerts: Rows<'alerts'>;
  integrations: Rows<'integrations'>;
  webhooks: Rows<'webhooks'>;
  reports: Rows<'reports'>;
  invoices: Invoice[];
}

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();
const isoOrNull = (value: Date | string | null): string | null => (value === null ? null : iso(value));

/** Scheme and host: a chat webhook's path is its token. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** The one place that knows the export's rows and the contracts' export document. */
export function toAccountExport(parts: AccountExportParts, exportedAt: Date, adminEmail: string | undefined): AccountExport {
  return {
    exportedAt: exportedAt.toISOString(),
    profile: toUserDto(parts.user, adminEmail),
    domains: parts.domains.map((d) => ({ ...d, lastScan: isoOrNull(d.lastScan), createdAt: iso(d.createdAt), deletedAt: isoOrNull(d.deletedAt) })),
    scans: parts.scans.map((s) => ({ ...s, firstScanAt: isoOrNull(s.firstScanAt), lastScanAt: isoOrNull(s.lastScanAt) })),
    alerts: parts.alerts.map((a) => ({ ...a, resolvedAt: isoOrNull(a.resolvedAt), createdAt: iso(a.createdAt) })),
    integrations: parts.integrations.map((i) => ({ ...i, createdAt: iso(i.createdAt), updatedAt: iso(i.updatedAt) })),
    webhooks: parts.webhooks.map(({ url, ...w }) => ({ ...w, origin: originOf(url), createdAt: iso(w.createdAt) })),
    reports: parts.reports.map((r) => ({ ...r, createdAt: iso(r.createdAt) })),
    invoices: parts.invoices,
  };
}
