import type { IntegrationConfig } from '@sendwell/contracts';
import type { OutboundHttp } from '@sendwell/server-kit';
import { headline, type AlertMessage } from '../alert-message.js';
import { expectSuccess } from './answer.js';

const COLOR: Record<string, number> = { critical: 0xdc2626, high: 0xea580c, medium: 0xca8a04, low: 0x2563eb };
const RESOLVED_COLOR = 0x16a34a;

/** Discord's message with one embed (title linking to the domain, colour by severity, fields). */
export function discordBody(message: AlertMessage) {
  return {
    embeds: [
      {
        title: headline(message).slice(0, 256),
        url: message.links.domain,
        description: `${message.alert.message}\n\n*${message.whyItMatters}*`.slice(0, 4096),
        color: message.event === 'resolved' ? RESOLVED_COLOR : (COLOR[message.alert.severity] ?? COLOR.low),
        fields: [
          { name: 'Domain', value: message.domain.name, inline: true },
          { name: 'Severity', value: message.alert.severity, inline: true },
          ...(message.links.guide ? [{ name: 'Fixing guide', value: message.links.guide }] : []),
        ],
        timestamp: message.alert.resolvedAt ?? message.alert.createdAt,
        footer: { text: 'Sendwell' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

/** Create Message in the saved channel with the saved bot token. */
export async function deliverDiscord(http: OutboundHttp, apiUrl: string, config: IntegrationConfig<'discord'>, message: AlertMessage): Promise<void> {
  const answer = await http.post(`${apiUrl}/channels/${encodeURIComponent(config.channelId)}/messages`, JSON.stringify(discordBody(message)), {
    authorization: `Bot ${config.botToken}`,
  });
  expectSuccess(answer, 'Discord');
}
