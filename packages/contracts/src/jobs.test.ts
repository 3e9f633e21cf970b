import { describe, expect, it } from 'vitest';
import { JobName, jobPayloads, jobQueue, jobsOfQueue, QueueName, queueConsumer, scanJobOptions, signupDomainJobId } from './jobs.js';

describe('job consumers', () => {
  it('gives every job a queue that a service consumes, and every queue a job', () => {
    for (const name of Object.values(JobName)) expect(queueConsumer[jobQueue[name]], name).toMatch(/^[a-z]+$/);
    for (const queue of Object.values(QueueName)) expect(jobsOfQueue(queue).length, queue).toBeGreaterThan(0);
  });

  it('lists each queue\'s jobs for its worker to cover', () => {
    expect(jobsOfQueue(QueueName.Scan)).toEqual([JobName.ScanDomain, JobName.ScanSampleDomain, JobName.SweepDueDomains]);
    expect(jobsOfQueue(QueueName.Maintenance)).toEqual([JobName.PurgeDeletedDomains, JobName.NightlyCleanUp, JobName.ProvisionSignupDomain]);
  });
});

describe('provision-signup-domain', () => {
  it('rides the maintenance queue with a {userId, domain} payload', () => {
    expect(jobQueue[JobName.ProvisionSignupDomain]).toBe(QueueName.Maintenance);
    expect(jobPayloads[JobName.ProvisionSignupDomain].parse({ userId: 7, domain: 'example.com' })).toEqual({ userId: 7, domain: 'example.com' });
    expect(jobPayloads[JobName.ProvisionSignupDomain].safeParse({ userId: 0, domain: 'example.com' }).success).toBe(false);
    expect(jobPayloads[JobName.ProvisionSignupDomain].safeParse({ userId: 7, domain: '' }).success).toBe(false);
    expect(jobPayloads[JobName.ProvisionSignupDomain].safeParse({ userId: 7, domain: 'not a domain' }).success).toBe(false);
  });

  it('has one job id per user, without the colon BullMQ refuses in ids', () => {
    expect(signupDomainJobId(42)).toBe('signup-domain-42');
    expect(signupDomainJobId(42)).not.toContain(':');
  });
});

describe('scanJobOptions', () => {
  it('uses the scan id as job id and deduplicates by domain', () => {
    expect(scanJobOptions('5b3f6c4e-0000-4000-8000-000000000000', 9)).toEqual({ jobId: '5b3f6c4e-0000-4000-8000-000000000000', deduplication: { id: 'scan-9' } });
  });
});
