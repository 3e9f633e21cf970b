import { JobName, type QueueName } from '@sendwell/contracts';
import type { JobHandlers } from '@sendwell/server-kit';
import type { AutomatedReports } from '../generation/automated-reports.js';
import type { ReportGenerator } from '../generation/report-generator.js';

/** The report queue's handlers. */
export function reportHandlers(generator: ReportGenerator, automated: AutomatedReports): JobHandlers<typeof QueueName.Report> {
  return {
    [JobName.GenerateReport]: async ({ reportId }, job, log) => {
      try {
        return { outcome: await generator.generate(reportId) };
      } catch (error) {
        // The last attempt marks the report failed, so the screen stops showing it as in progress.
        // attemptsMade counts the attempts before this one while the handler runs.
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
          log.warn({ err: error, reportId }, 'report generation failed for good');
          await generator.failed(reportId);
        }
        throw error;
      }
    },
    [JobName.ScheduleAutomatedReports]: async () => automated.run(),
  };
}
