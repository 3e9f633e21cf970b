import { domainNameSchema, JobName, provisionSignupDomainJob, purgeDeletedDomainsJob } from '@sendwell/contracts';
import { UnrecoverableError } from 'bullmq';
import type { DomainService } from '../services/domain.service.js';
import type { MaintenanceHandlers } from './maintenance.worker.js';

/** The handlers of the maintenance jobs this service owns; payloads re-validated (a job may outlive a deploy). */
export function maintenanceHandlers(domains: DomainService): MaintenanceHandlers {
  return {
    [JobName.PurgeDeletedDomains]: async (job) => {
      if (!purgeDeletedDomainsJob.safeParse(job.data ?? {}).success) throw new UnrecoverableError('invalid purge-deleted-domains payload');
      return { purged: await domains.purgeExpired() };
    },
    [JobName.ProvisionSignupDomain]: async (job, log) => {
      const parsed = provisionSignupDomainJob.safeParse(job.data);
      const name = parsed.success ? domainNameSchema.safeParse(parsed.data.domain) : null;
      if (!parsed.success || !name?.success) throw new UnrecoverableError('invalid provision-signup-domain payload');
      const result = await domains.provisionSignupDomain(parsed.data.userId, name.data);
      log.info({ userId: parsed.data.userId, ...result }, 'sign-up domain provisioned');
      return result;
    },
  };
}
