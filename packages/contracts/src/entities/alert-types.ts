/** Alert types and their labels, without zod, for the screens that list them. */

/** Alert types the services raise; stored as text because part 1 §3 says "others" exist. */
export const AlertType = {
  BlacklistListed: 'blacklist_listed',
  StatusChange: 'status_change',
  SslExpiring: 'ssl_expiring',
  SslSecurityIssue: 'ssl_security_issue',
  DnsChange: 'dns_change',
  DkimMissing: 'dkim_missing',
  SpfBroken: 'spf_broken',
  DmarcMissing: 'dmarc_missing',
  /** Mail flow (issue 25): raised by the intake from received DMARC aggregate and TLS-RPT reports. */
  MailNewSender: 'mail_new_sender',
  MailFailureSpike: 'mail_failure_spike',
  MailReportsStopped: 'mail_reports_stopped',
  TlsRptFailures: 'tls_rpt_failures',
  /** Sender requirements (issue 26): raised by the intake when a Gmail/Yahoo/Microsoft requirement turns from met to unmet. */
  SenderRequirementUnmet: 'sender_requirement_unmet',
} as const;

type AlertType = (typeof AlertType)[keyof typeof AlertType];

/** The mail-flow alert rules' thresholds; the labels below quote them, the intake applies them. */
export const MAIL_FLOW_ALERT_THRESHOLDS = {
  /** A sender's messages in one day before it is worth an alert. */
  newSenderMessages: 100,
  /** Days a sender must have been absent from the domain's reports to count as new. */
  newSenderLookbackDays: 30,
  spikeMinFailures: 100,
  spikeFactor: 3,
  spikeBaselineDays: 7,
  /** Failures must also exceed this share of the day's mail. */
  spikeMinShare: 0.1,
  stoppedAfterHours: 72,
  stoppedLookbackDays: 14,
  /** Days with reports in the lookback before silence means something. */
  stoppedMinReportDays: 3,
  tlsMinFailedSessions: 10,
  tlsMinShare: 0.05,
} as const;
const T = MAIL_FLOW_ALERT_THRESHOLDS;

export const alertTypes = Object.values(AlertType) as [AlertType, ...AlertType[]];

/** How the Notifications tab and the messages name each type. */
export const alertTypeLabels: Record<AlertType, { label: string; description: string }> = {
  blacklist_listed: { label: 'Blacklist listings', description: 'A domain or one of its mail servers is listed on a blacklist, or delisted.' },
  status_change: { label: 'Status changes', description: 'A domain turns healthy, warning or critical, or its reputation label changes.' },
  ssl_expiring: { label: 'SSL expiry reminders', description: 'A certificate expires in 30, 14, 7 or 1 days.' },
  ssl_security_issue: { label: 'SSL security issues', description: 'A certificate is expired, for the wrong name, untrusted, or served over an old protocol.' },
  dns_change: { label: 'DNS changes', description: 'MX, SPF, DMARC, name servers or addresses changed since the previous scan.' },
  dkim_missing: { label: 'DKIM missing', description: 'Every DKIM key found before has gone, or a key turned invalid.' },
  spf_broken: { label: 'SPF broken', description: 'The SPF record disappeared or turned invalid.' },
  dmarc_missing: { label: 'DMARC missing', description: 'The DMARC record disappeared or turned invalid.' },
  mail_new_sender: {
    label: 'New mail senders',
    description: `DMARC reports show a sender not seen in the previous ${T.newSenderLookbackDays} days sending ${T.newSenderMessages} or more messages in a day as the domain.`,
  },
  mail_failure_spike: {
    label: 'DMARC failure spikes',
    description: `A day's DMARC failures reach ${T.spikeMinFailures}, ${T.spikeFactor} times the previous week's daily average and over ${T.spikeMinShare * 100}% of the mail.`,
  },
  mail_reports_stopped: {
    label: 'DMARC reports stopped',
    description: `DMARC reports arrived regularly, then none for ${T.stoppedAfterHours} hours: the record or its report address may have changed.`,
  },
  tls_rpt_failures: {
    label: 'TLS delivery failures',
    description: `TLS-RPT reports show ${T.tlsMinFailedSessions} or more sessions to the domain's mail servers failing one way in a day, at least ${T.tlsMinShare * 100}% of them.`,
  },
  sender_requirement_unmet: {
    label: 'Sender requirements',
    description: 'A Gmail, Yahoo or Microsoft sender requirement the domain met (SPF, DKIM, DMARC, alignment, reverse DNS, TLS, one-click unsubscribe, message format) is no longer met.',
  },
};

/** Days before expiry at which `ssl_expiring` is raised, each once per certificate. */
export const SSL_EXPIRY_THRESHOLDS = [30, 14, 7, 1] as const;
