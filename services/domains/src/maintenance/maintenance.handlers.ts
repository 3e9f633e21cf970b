import { JobName, type QueueName } from '@sendwell/contracts';
import type { JobHandlers } from '@sendwell/server-kit';
import type { CleanUpService } from './clean-up.service.js';
import type { HistoryMaintenanceService } from './history-maintenance.service.js';
import type { DomainService } from '../domains/domain.service.js';

/** The handlers of the maintenance queue, whose consumer this service is (it owns the domains table). */
export function maintenanceHandlers(domains: DomainService, cleanUp: CleanUpService, history: HistoryMaintenanceService): JobHandlers<typeof QueueName.Maintenance> {
  return {
    [JobName.PurgeDeletedDomains]: async () => ({ purged: await domains.purgeExpired() }),
    [JobName.NightlyCleanUp]: async () => cleanUp.run(),
    [JobName.MaintainHistory]: async () => history.run(),
    [JobName.ProvisionSignupDomain]: async ({ userId, domain }, _job, log) => {
      const result = await domains.provisionSignupDomain(userId, domain);
      log.info({ userId, ...result }, 'sign-up domain provisioned');
      return result;
    },
  };
}
