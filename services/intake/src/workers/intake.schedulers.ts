import { JobName } from '@sendwell/contracts';
import type { JobSchedulerSpec } from '@sendwell/server-kit';

const keep = { attempts: 3, removeOnComplete: { count: 48 }, removeOnFail: { count: 48 } };

/** The intake's recurring jobs: one of each runs at a time, whatever the number of intake processes. */
export const intakeSchedulers: JobSchedulerSpec[] = [
  { id: JobName.SweepUnreadIntakeMessages, repeat: { every: 60_000 }, template: { name: JobName.SweepUnreadIntakeMessages, data: {}, opts: keep } },
  { id: JobName.SweepUnanalysedMailTests, repeat: { every: 60_000 }, template: { name: JobName.SweepUnanalysedMailTests, data: {}, opts: keep } },
  { id: JobName.NameMailSources, repeat: { every: 60_000 }, template: { name: JobName.NameMailSources, data: {}, opts: keep } },
  // Hourly: the alerts look back two hours, so one late or failed run misses nothing.
  { id: JobName.CheckMailFlowAlerts, repeat: { pattern: '5 * * * *', tz: 'UTC' }, template: { name: JobName.CheckMailFlowAlerts, data: {}, opts: keep } },
  { id: JobName.PruneMailFlow, repeat: { pattern: '40 3 * * *', tz: 'UTC' }, template: { name: JobName.PruneMailFlow, data: {}, opts: keep } },
];
