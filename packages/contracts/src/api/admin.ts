import type { z } from 'zod';
import { serverStatsSchema } from '../entities/server-stats.js';

/** GET /api/admin/server-stats: the administrator only (email equals ADMIN_EMAIL). */
export const serverStatsAnswer = serverStatsSchema;
export type ServerStatsAnswer = z.infer<typeof serverStatsAnswer>;

export const ADMIN_ONLY_MESSAGE = 'Access denied. This page is restricted to system administrators.';
