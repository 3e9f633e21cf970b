import type { IntegrationConfig } from '@sendwell/contracts';
import type { OutboundHttp } from '@sendwell/server-kit';
import { headline, type AlertMessage } from '../alert-message.js';
import { expectSuccess } from './answer.js';

/** PagerDuty's severities (Events API v2) for ours. */
const SEVERITY: Record<string, 'critical' | 'error' | 'warning' | 'info'> = { critical: 'critical', high: 'error', medium: 'warning', low: 'info' };

/** One incident per alert: its resolution resolves the same incident. */
export const pagerDutyDedupKey = (message: AlertMessage) => (message.test ? message.eventId : `sendwell-alert-${message.alert.id}`);

/** An Events API v2 event: `trigger` when raised, `resolve` (same dedup key) when resolved. */
export function pagerDutyBody(message: AlertMessage, routingKey: string) {
  if (message.event === 'resolved') return { routing_key: routingKey, event_action: 'resolve', dedup_key: pagerDutyDedupKey(message) };
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: pagerDutyDedupKey(message),
    payload: {
      summary: headline(message).slice(0, 1024),
      source: message.domain.name,
      severity: SEVERITY[message.alert.severity] ?? 'warning',
      timestamp: message.alert.createdAt,
      component: message.domain.name,
      group: 'email-deliverability',
      class: message.alert.type,
      custom_details: { message: message.alert.message, why: message.whyItMatters, ...message.alert.details },
    },
    links: [
      { href: message.links.domain, text: 'Open domain in Sendwell' },
      ...(message.links.guide ? [{ href: message.links.guide, text: 'Fixing guide' }] : []),
    ],
    client: 'Sendwell',
    client_url: message.links.domain,
  };
}

export async function deliverPagerDuty(http: OutboundHttp, eventsUrl: string, config: IntegrationConfig<'pagerduty'>, message: AlertMessage): Promise<void> {
  expectSuccess(await http.post(`${eventsUrl}/v2/enqueue`, JSON.stringify(pagerDutyBody(message, config.integrationKey)), {}), 'PagerDuty');
}
