import { describe, expect, it } from 'vitest';
import { alertMessage, webhookPayload } from '../alert-message.js';
import { discordBody } from './discord.js';
import { pagerDutyBody } from './pagerduty.js';
import { slackBody } from './slack.js';
import { teamsBody } from './teams.js';
import { verifyWebhookSignature, webhookSignature } from './webhook.js';
import { webhookPayloadSchema } from '@sendwell/contracts';

const row = {
  id: 42,
  type: 'spf_broken',
  severity: 'high',
  title: 'SPF record missing for example.com',
  message: 'The SPF record has disappeared.',
  details: { check: 'spf' },
  createdAt: new Date('2026-11-24T10:00:00Z'),
  resolvedAt: null,
  domainId: 7,
  domainName: 'example.com',
};
const raised = alertMessage(row, 'raised', 'https://app.example');
const resolved = alertMessage({ ...row, resolvedAt: new Date('2026-11-24T12:00:00Z') }, 'resolved', 'https://app.example');

describe('each channel in its own format', () => {
  it('links the domain and its fixing guide', () => {
    expect(raised.links).toEqual({
      domain: 'https://app.example/domains/example.com',
      guide: 'https://app.example/fixing-guide/example.com/spf',
      preferences: 'https://app.example/settings?tab=notifications',
    });
    expect(raised.eventId).toBe('evt_42_raised');
  });

  it('Slack: Block Kit with a fallback text; Discord: an embed; Teams: an Adaptive Card', () => {
    expect(slackBody(raised, 'C1')).toMatchObject({ channel: 'C1', text: expect.stringContaining('SPF record missing'), blocks: [{ type: 'header' }, { type: 'section' }, { type: 'context' }, { type: 'actions' }] });
    expect(discordBody(resolved).embeds[0]).toMatchObject({ title: 'Resolved: SPF record missing for example.com', color: 0x16a34a, url: raised.links.domain });
    expect(teamsBody(raised).attachments[0]).toMatchObject({ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard', version: '1.4' } });
  });

  it('PagerDuty: trigger with a severity it knows, then resolve with the same dedup key', () => {
    expect(pagerDutyBody(raised, 'key')).toMatchObject({ routing_key: 'key', event_action: 'trigger', dedup_key: 'sendwell-alert-42', payload: { severity: 'error', source: 'example.com', class: 'spf_broken' } });
    expect(pagerDutyBody(resolved, 'key')).toEqual({ routing_key: 'key', event_action: 'resolve', dedup_key: 'sendwell-alert-42' });
  });

  it('webhooks: the documented payload, signed so that a receiver can verify it and refuse a replay', () => {
    const now = new Date('2026-11-24T10:00:05Z');
    const body = JSON.stringify(webhookPayload(resolved, now));
    expect(webhookPayloadSchema.parse(JSON.parse(body))).toMatchObject({ id: 'evt_42_resolved', type: 'alert.resolved', data: { domain: { name: 'example.com' } } });
    const header = webhookSignature('whsec_test', body, now);
    expect(verifyWebhookSignature('whsec_test', body, header, now)).toBe(true);
    expect(verifyWebhookSignature('whsec_other', body, header, now)).toBe(false);
    expect(verifyWebhookSignature('whsec_test', `${body} `, header, now)).toBe(false);
    expect(verifyWebhookSignature('whsec_test', body, header, new Date(now.getTime() + 301_000))).toBe(false);
  });
});
