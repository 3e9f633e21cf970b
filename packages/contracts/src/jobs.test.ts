import { describe, expect, it } from 'vitest';
import {
  deliverAlertJobId,
  deliveryJobOptions,
  JobName,
  jobPayloads,
  jobQueue,
  jobsOfQueue,
  QueueName,
  queueConsumer,
  scanJobOptions,
  sendAlertJobId,
  signupDomainJobId,
} from './jobs.js';

describe('job consumers', () => {
  it('gives every job a queue that a service consumes, and every queue a job', () => {
    for (const name of Object.values(JobName)) expect(queueConsumer[jobQueue[name]], name).toMatch(/^[a-z]+$/);
    for (const queue of Object.values(QueueName)) expect(jobsOfQueue(queue).length, queue).toBeGreaterThan(0);
  });

  it('lists each queue\'s jobs for its worker to cover', () => {
    expect(jobsOfQueue(QueueName.Scan)).toEqual([JobName.ScanDomain, JobName.ScanSampleDomain, JobName.SweepDueDomains, JobName.RecalculateReputation, JobName.ProbeBlocklists, JobName.AnalyseMailTest]);
    expect(jobsOfQueue(QueueName.Maintenance)).toEqual([JobName.PurgeDeletedDomains, JobName.NightlyCleanUp, JobName.MaintainHistory, JobName.ProvisionSignupDomain]);
    expect(jobsOfQueue(QueueName.Notify)).toEqual([JobName.SendAlert, JobName.DeliverAlert, JobName.SweepUnsentAlerts, JobName.SendAlertDigests]);
  });
});

describe('alert delivery jobs', () => {
  it('name each channel a delivery can go to, and refuse anything else', () => {
    for (const channel of ['email', 'slack', 'pagerduty', 'constant contact', 'webhook:12']) {
      expect(jobPayloads[JobName.DeliverAlert].safeParse({ alertId: 1, event: 'raised', channel }).success, channel).toBe(true);
    }
    for (const channel of ['jira', 'webhook:0', 'webhook:x', 'sms', '']) {
      expect(jobPayloads[JobName.DeliverAlert].safeParse({ alertId: 1, event: 'raised', channel }).success, channel).toBe(false);
    }
    expect(jobPayloads[JobName.SendAlert].safeParse({ alertId: 1, event: 'cleared' }).success).toBe(false);
  });

  it('have one id per alert and event, and per alert, event and channel, without the characters BullMQ refuses', () => {
    expect(sendAlertJobId(7, 'resolved')).toBe('alert-7-resolved');
    expect(deliverAlertJobId(7, 'raised', 'webhook:3')).toBe('deliver-7-raised-webhook-3');
    expect(deliverAlertJobId(7, 'raised', 'constant contact')).toBe('deliver-7-raised-constant-contact');
  });

  it('retry a delivery for about 24 hours in all', () => {
    const waits = Array.from({ length: deliveryJobOptions.attempts - 1 }, (_, i) => deliveryJobOptions.backoff.delay * 2 ** i);
    const hours = waits.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(hours).toBeGreaterThan(23.5);
    expect(hours).toBeLessThan(24.5);
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
