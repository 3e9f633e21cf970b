import { z } from '../zod.js';
import { isoDateTime } from '../common.js';

export const poolHealths = ['healthy', 'warning', 'critical'] as const;
const count = z.number().int().nonnegative();
const percent = z.number().min(0).max(100);

/** One process's own figures, from its `GET /internal/stats` (each service answers on its own port, never through the gateway). */
export const serviceStatsSchema = z.object({
  service: z.string(),
  pool: z.object({ total: count, idle: count, waiting: count, max: count }).nullable(),
  /** Statements of the last 15 minutes. */
  queries: z.object({ count: count, avgMs: z.number().nonnegative(), slow: count }).nullable(),
  process: z.object({ uptimeSeconds: z.number().nonnegative(), heapUsedMB: z.number().nonnegative(), rssMB: z.number().nonnegative() }),
});
export type ServiceStats = z.infer<typeof serviceStatsSchema>;

export const queueStatsSchema = z.object({ name: z.string(), waiting: count, active: count, delayed: count, failed: count });
export type QueueStats = z.infer<typeof queueStatsSchema>;

/** What one run of the scan history's maintenance did (the scan engine's HistoryPartitions). */
export const historyMaintenanceRunSchema = z.object({
  /** Months (`YYYY-MM-01`) whose partitions were created ahead. */
  created: z.array(z.string()),
  /** Months dropped whole, oldest first. */
  dropped: z.array(z.string()),
  /** Domains whose latest scan was carried forward out of a dropped month. */
  carriedScans: count,
  /** Domains whose latest reputation point was carried forward. */
  carriedScores: count,
  /** How long the drops held their lock, in milliseconds. */
  dropMs: z.number().nonnegative(),
});
export type HistoryMaintenanceRun = z.infer<typeof historyMaintenanceRunSchema>;

/** The scan history's month partitions and the nightly job that keeps them. */
export const historyPartitionsSchema = z.object({
  /** Months (`YYYY-MM-01`) with partitions, oldest first. */
  months: z.array(z.string()),
  /** The longest plan's history in days: a month wholly older is dropped. */
  keptDays: count,
  /** The last run, or null before the first (or on a new Redis). A failed run has its error and no figures. */
  lastRun: historyMaintenanceRunSchema.partial().extend({ at: isoDateTime, error: z.string().nullable() }).nullable(),
});
export type HistoryPartitionsFigures = z.infer<typeof historyPartitionsSchema>;

/** What the domains service reads for the whole system: Postgres counts and every BullMQ queue. */
export const systemFiguresSchema = z.object({
  scans: z.object({ active: count, domainsScannedToday: count, avgScanSeconds: z.number().nonnegative(), failedLast24h: count }),
  domains: z.object({ total: count, scheduled: count }),
  users: z.object({ total: count, active: count, premium: count }),
  alerts: z.object({ raisedLast24h: count, deliveredLast24h: count }),
  queues: z.array(queueStatsSchema),
  history: historyPartitionsSchema,
});
export type SystemFigures = z.infer<typeof systemFiguresSchema>;

/** The domains service's `/internal/stats`: its own figures and the system's. */
export const domainsInternalStatsSchema = serviceStatsSchema.extend({ system: systemFiguresSchema });

/**
 * One block list as the scanner's self-testing registry last found it at its RFC 5782 test points:
 * a degraded list's answers are read as unknown until a probe finds it healthy again.
 */
export const blocklistHealthSchema = z.object({
  /** The list's public zone: a key in its query zone (Spamhaus DQS) shows as `<redacted>.zen.dq.spamhaus.net`. */
  zone: z.string(),
  name: z.string(),
  kind: z.enum(['ip', 'domain']),
  state: z.enum(['healthy', 'degraded']),
  reason: z.string().nullable(),
  checkedAt: isoDateTime,
  /** When the list entered its current state. */
  since: isoDateTime,
});
export type BlocklistHealth = z.infer<typeof blocklistHealthSchema>;

/** `GET /api/admin/server-stats` (part 2 §3), with the figures behind each card. */
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
  /** Beyond the spec's cards: each service's pool and process, every queue, and the gateway's traffic. */
  services: z.array(serviceStatsSchema.extend({ reachable: z.boolean() })),
  queues: z.array(queueStatsSchema),
  /** The scan history's partitions and their nightly maintenance. */
  history: historyPartitionsSchema,
  gateway: z.object({
    /** Since the gateway started. */
    requestsTotal: count,
    requestsPerSecond: z.number().nonnegative(),
    /** Share of answers that were 5xx, in percent. */
    errorRate: percent,
    /** The 95th percentile of answer times, in milliseconds, from the request histogram. */
    p95Ms: z.number().nonnegative().nullable(),
  }),
  /** The scanner's block lists and whether each answers right at its test points; empty when the scanner is out of reach. */
  blocklists: z.array(blocklistHealthSchema),
  measuredAt: isoDateTime,
});
export type ServerStats = z.infer<typeof serverStatsSchema>;
