import type { JobName } from '@sendwell/contracts';
import type { ScanRecovery, Sweeper } from '@sendwell/scan-engine';
import type { JobHandler } from '@sendwell/server-kit';

/**
 * A sweep: first the recovery pass (scans whose job Redis lost), then the due domains. A recovery
 * that fails (Redis down) is logged and does not stop the sweep, which reports its own failure.
 */
export function sweepHandler(sweeper: Sweeper, recovery: ScanRecovery): JobHandler<typeof JobName.SweepDueDomains> {
  return async (_data, _job, log) => {
    const recovered = await recovery.run().catch((err: unknown) => {
      log.error({ err }, 'scan recovery pass failed');
      return null;
    });
    return { ...(await sweeper.sweep()), recovered };
  };
}
