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
} as const;

type AlertType = (typeof AlertType)[keyof typeof AlertType];
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
};

/** Days before expiry at which `ssl_expiring` is raised, each once per certificate. */
export const SSL_EXPIRY_THRESHOLDS = [30, 14, 7, 1] as const;
