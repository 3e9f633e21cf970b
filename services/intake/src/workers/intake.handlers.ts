import { JobName, type QueueName } from '@sendwell/contracts';
import type { JobHandlers } from '@sendwell/server-kit';
import type { Deps } from '../deps.js';

/** The intake queue's handlers (stub: helper B fills in reading, sweeping and pruning). */
export function intakeHandlers(deps: Deps): JobHandlers<typeof QueueName.Intake> {
  return {
    [JobName.ReadIntakeMessage]: async () => {
      throw new Error('not built yet');
    },
    [JobName.SweepUnreadIntakeMessages]: async () => null,
    [JobName.NameMailSources]: async () => ({ named: await deps.namer.nameUnnamed(200) }),
    [JobName.PruneMailFlow]: async () => null,
  };
}
