import { z } from 'zod';

export const poolHealths = ['healthy', 'warning', 'critical'] as const;
const count = z.number().int().nonnegative();
const percent = z.number().min(0).max(100);

/** `GET /api/admin/server-stats` (part 2 §3). */
export const serverStatsSchema = z.object({
  database: z.object({
    activeConnections: count,
    maxConnections: count,
    /** Text: a value other than the three known ones is shown as Unknown. */
    connectionPoolHealth: z.string(),
    avgQueryTime: z.number().nonnegative(),
    slowQueries: count,
  }),
  domains: z.object({
    activeScans: count,
    domainsScannedToday: count,
    totalDomains: count,
    /** Seconds. */
    avgScanTime: z.number().nonnegative(),
    /** Failed scans of the last 24 hours. */
    failedScans: count,
  }),
  monitoring: z.object({
    scheduledScans: count,
    continuousMonitoringActive: z.boolean(),
    alertsLast24h: count,
    notificationsSent: count,
  }),
  users: z.object({ totalUsers: count, activeUsers: count, premiumUsers: count }),
  system: z.object({
    /** Seconds. */
    uptime: z.number().nonnegative(),
    cpuUsage: percent,
    memoryUsage: percent,
    diskUsage: percent,
    heapUsedMB: z.number().nonnegative(),
    rssUsedMB: z.number().nonnegative(),
  }),
});
export type ServerStats = z.infer<typeof serverStatsSchema>;
