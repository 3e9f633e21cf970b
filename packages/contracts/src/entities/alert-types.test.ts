import { describe, expect, it } from 'vitest';
import { notificationPreferencesSchema } from './notification-preferences.js';
import { alertTypeLabels, alertTypeSchema, alertTypeSeverity, alertTypes } from './alert.js';

describe('alert types', () => {
  it('lists the scanner and mail-flow types, each labelled, described and with a severity', () => {
    expect(alertTypes).toEqual([
      'blacklist_listed',
      'status_change',
      'ssl_expiring',
      'ssl_security_issue',
      'dns_change',
      'dkim_missing',
      'spf_broken',
      'dmarc_missing',
      'mail_new_sender',
      'mail_failure_spike',
      'mail_reports_stopped',
      'tls_rpt_failures',
      'sender_requirement_unmet',
    ]);
    for (const type of alertTypes) {
      expect(alertTypeLabels[type].label.length).toBeGreaterThan(0);
      expect(alertTypeLabels[type].description).toMatch(/\.$/);
      expect(alertTypeSeverity[type]).toBeDefined();
    }
    expect(alertTypeSeverity).toMatchObject({ mail_new_sender: 'medium', mail_failure_spike: 'high', mail_reports_stopped: 'medium', tls_rpt_failures: 'high', sender_requirement_unmet: 'high' });
  });

  it('quotes the mail-flow thresholds in the descriptions', () => {
    expect(alertTypeLabels.mail_failure_spike.description).toContain('over 10% of the mail');
    expect(alertTypeLabels.tls_rpt_failures.description).toContain('at least 5%');
    expect(alertTypeLabels.mail_reports_stopped.description).toContain('72 hours');
  });

  it('lets a user mute every type, the new ones included', () => {
    expect(alertTypeSchema.safeParse('tls_rpt_failures').success).toBe(true);
    const prefs = notificationPreferencesSchema.parse({ emailAlerts: true, digest: false, reportEmails: true, mutedTypes: [...alertTypes] });
    expect(prefs.mutedTypes).toEqual(alertTypes);
  });
});
