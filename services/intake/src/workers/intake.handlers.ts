import { JobName, type QueueName } from '@sendwell/contracts';
import type { JobHandlers } from '@sendwell/server-kit';
import type { Deps } from '../deps.js';
import { sweepUnanalysedMailTests } from '../mail-tests/sweep-unanalysed-mail-tests.js';
import { readIntakeMessage } from '../reading/read-intake-message.js';
import { sweepUnreadIntakeMessages } from '../reading/sweep-unread-intake-messages.js';
import { SenderRequirementsService } from '../sender-requirements/sender-requirements.service.js';
import { pruneMailFlow } from '../storage/prune-mail-flow.js';

/** The intake queue's handlers: reading stored messages, re-queueing lost ones (and lost mail-test analyses), naming sources, alerts, judging sender requirements, pruning. */
export function intakeHandlers(deps: Deps): JobHandlers<typeof QueueName.Intake> {
  const senderRequirements = new SenderRequirementsService(deps);
  return {
    [JobName.ReadIntakeMessage]: async ({ messageId }, job) => {
      // attemptsMade counts the attempts before this one.
      const result = await readIntakeMessage(deps, messageId, { lastAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) });
      return { state: result.state };
    },
    [JobName.SweepUnreadIntakeMessages]: async () => sweepUnreadIntakeMessages(deps),
    [JobName.NameMailSources]: async () => ({ named: await deps.namer.nameUnnamed(200) }),
    [JobName.CheckMailFlowAlerts]: async () => deps.alerts.evaluate(),
    [JobName.SweepUnanalysedMailTests]: async () => sweepUnanalysedMailTests(deps),
    [JobName.RefreshSenderRequirements]: async ({ domainId }) => senderRequirements.refresh(domainId),
    [JobName.PruneMailFlow]: async (_data, _job, log) => {
      const result = await pruneMailFlow(deps.db);
      log.info(result, 'mail flow pruned');
      return result;
    },
  };
}
