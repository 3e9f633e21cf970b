import type { IntegrationConfig } from '@sendwell/contracts';
import { OutboundError, type OutboundHttp } from '@sendwell/server-kit';
import { headline, type AlertMessage } from '../alert-message.js';
import { expectSuccess } from './answer.js';

const EMOJI: Record<string, string> = { critical: ':red_circle:', high: ':large_orange_circle:', medium: ':large_yellow_circle:', low: ':large_blue_circle:' };

/** Slack's Block Kit message: a header, the explanation, the domain and severity, and buttons. */
export function slackBody(message: AlertMessage, channel: string) {
  const icon = message.event === 'resolved' ? ':white_check_mark:' : (EMOJI[message.alert.severity] ?? '');
  const buttons = [
    { type: 'button', text: { type: 'plain_text', text: 'Open domain' }, url: message.links.domain },
    ...(message.links.guide ? [{ type: 'button', text: { type: 'plain_text', text: 'Fixing guide' }, url: message.links.guide }] : []),
  ];
  return {
    channel,
    // The fallback text shows in notifications and clients without blocks.
    text: `${icon} ${headline(message)}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: headline(message).slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: `${message.alert.message}\n_${message.whyItMatters}_` } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `${icon} *${message.alert.severity}* · ${message.domain.name} · ${message.alert.type}` }],
      },
      { type: 'actions', elements: buttons },
    ],
  };
}

/** chat.postMessage with the bot token the user saved; Slack answers 200 with `ok: false` on errors. */
export async function deliverSlack(http: OutboundHttp, apiUrl: string, config: IntegrationConfig<'slack'>, message: AlertMessage): Promise<void> {
  const answer = await http.post(`${apiUrl}/chat.postMessage`, JSON.stringify(slackBody(message, config.channelId)), {
    authorization: `Bearer ${config.botToken}`,
    'content-type': 'application/json; charset=utf-8',
  });
  expectSuccess(answer, 'Slack');
  let result: { ok?: boolean; error?: string } = {};
  try {
    result = JSON.parse(answer.body) as typeof result;
  } catch {
    throw new OutboundError('Slack answered something other than JSON', false);
  }
  if (!result.ok) throw new OutboundError(`Slack refused the message (${result.error ?? 'unknown error'})`, result.error !== 'ratelimited');
}
