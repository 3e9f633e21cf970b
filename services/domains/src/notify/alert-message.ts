import { WEBHOOK_API_VERSION, webhookEventType, type AlertEvent, type AlertSeverity, type WebhookPayload } from '@sendwell/contracts';

/** One alert event as every channel renders it: the alert, its domain and where to fix it. */
export interface AlertMessage {
  /** `evt_<alertId>_<event>`: the same on every attempt, the receivers' idempotency key. */
  eventId: string;
  /** A "Send test alert" message, about no real alert (id 0). */
  test: boolean;
  event: AlertEvent;
  alert: {
    id: number;
    type: string;
    severity: AlertSeverity;
    title: string;
    message: string;
    details: Record<string, unknown>;
    createdAt: string;
    resolvedAt: string | null;
  };
  domain: { id: number; name: string };
  links: { domain: string; guide: string | null; preferences: string };
  /** One sentence on why the alert matters to mail. */
  whyItMatters: string;
}

/** The fixing guides part 2 §2.7 offers (spf, dkim, dmarc, blacklist), by alert type. */
const GUIDE_OF: Record<string, 'spf' | 'dkim' | 'dmarc' | 'blacklist'> = {
  blacklist_listed: 'blacklist',
  spf_broken: 'spf',
  dkim_missing: 'dkim',
  dmarc_missing: 'dmarc',
};

const WHY: Record<string, string> = {
  blacklist_listed: 'Receivers that consult this list may reject or junk your mail until you are delisted.',
  status_change: "The domain's overall health changed: a drop usually means mail is more likely to land in spam.",
  ssl_expiring: 'An expired certificate breaks your website and the links in your mail, and some receivers distrust it.',
  ssl_security_issue: 'Browsers and mail clients warn about or refuse this certificate, and your links look unsafe.',
  dns_change: 'A change you did not make can reroute or break your mail; a change you did make should look like this.',
  dkim_missing: 'Without DKIM, receivers cannot verify your mail was not altered, and DMARC must rely on SPF alone.',
  spf_broken: 'Without a valid SPF record, receivers cannot tell which servers may send for you.',
  dmarc_missing: 'Without DMARC, nothing tells receivers to refuse mail forged in your name.',
  mail_new_sender: 'Mail you did not set up may be someone sending in your name; mail you did set up needs SPF and DKIM to pass DMARC.',
  mail_failure_spike: 'Mail failing DMARC is junked or refused once your policy says so, and a sudden rise often means spoofing or a broken sender.',
  mail_reports_stopped: 'Without reports you no longer see who sends as your domain, and a missing report address often means the DMARC record changed.',
  tls_rpt_failures: 'Senders that require TLS to your mail servers (MTA-STS, DANE) may hold or bounce your incoming mail until this is fixed.',
  sender_requirement_unmet: 'Gmail, Yahoo and Microsoft junk or refuse bulk mail from senders that do not meet their requirements.',
};

export interface AlertRow {
  id: number;
  type: string;
  severity: string;
  title: string;
  message: string;
  details: unknown;
  createdAt: Date;
  resolvedAt: Date | null;
  domainId: number;
  domainName: string;
}

export function alertMessage(row: AlertRow, event: AlertEvent, appUrl: string): AlertMessage {
  const guide = GUIDE_OF[row.type];
  const encoded = encodeURIComponent(row.domainName);
  return {
    eventId: `evt_${row.id}_${event}`,
    test: false,
    event,
    alert: {
      id: row.id,
      type: row.type,
      severity: row.severity as AlertSeverity,
      title: row.title,
      message: row.message,
      details: (row.details ?? {}) as Record<string, unknown>,
      createdAt: row.createdAt.toISOString(),
      resolvedAt: row.resolvedAt?.toISOString() ?? null,
    },
    domain: { id: row.domainId, name: row.domainName },
    links: {
      domain: `${appUrl}/domains/${encoded}`,
      guide: guide ? `${appUrl}/fixing-guide/${encoded}/${guide}` : null,
      preferences: `${appUrl}/settings?tab=notifications`,
    },
    whyItMatters: WHY[row.type] ?? 'This affects how receivers treat mail from your domain.',
  };
}

/** The heading every channel shows: "Resolved: …" once the condition cleared. */
export function headline(message: AlertMessage): string {
  return message.event === 'resolved' ? `Resolved: ${message.alert.title}` : message.alert.title;
}

/** The documented webhook body (contracts' `webhookPayloadSchema`). */
export function webhookPayload(message: AlertMessage, now: Date): WebhookPayload {
  return {
    id: message.eventId,
    type: message.test ? 'webhook.test' : webhookEventType(message.event),
    apiVersion: WEBHOOK_API_VERSION,
    createdAt: now.toISOString(),
    data: { alert: message.alert, domain: message.domain, links: { domain: message.links.domain, guide: message.links.guide } },
  };
}

/** A made-up alert for "Send test alert": clearly labelled, about no real domain of the user's. */
export function testMessage(appUrl: string, now: Date): AlertMessage {
  return {
    eventId: `evt_test_${now.getTime()}`,
    test: true,
    event: 'raised',
    alert: {
      id: 0,
      type: 'test',
      severity: 'low',
      title: 'Test alert from Sendwell',
      message: 'This is a test alert. If you can read it, Sendwell can deliver alerts here.',
      details: {},
      createdAt: now.toISOString(),
      resolvedAt: null,
    },
    domain: { id: 0, name: 'example.com' },
    links: { domain: `${appUrl}/domains`, guide: null, preferences: `${appUrl}/settings?tab=notifications` },
    whyItMatters: 'Nothing to fix: this only checks the connection.',
  };
}
