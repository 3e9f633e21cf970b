import type { IntegrationConfig } from '@sendwell/contracts';
import type { OutboundHttp } from '@sendwell/server-kit';
import { headline, type AlertMessage } from '../alert-message.js';
import { expectSuccess } from './answer.js';

const STYLE: Record<string, string> = { critical: 'attention', high: 'attention', medium: 'warning', low: 'accent' };

/** A Teams incoming-webhook message carrying one Adaptive Card (schema 1.4). */
export function teamsBody(message: AlertMessage) {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', size: 'Medium', weight: 'Bolder', wrap: true, text: headline(message), color: message.event === 'resolved' ? 'good' : (STYLE[message.alert.severity] ?? 'default') },
            { type: 'TextBlock', wrap: true, text: message.alert.message },
            { type: 'TextBlock', wrap: true, isSubtle: true, text: message.whyItMatters },
            {
              type: 'FactSet',
              facts: [
                { title: 'Domain', value: message.domain.name },
                { title: 'Severity', value: message.alert.severity },
                { title: 'Type', value: message.alert.type },
              ],
            },
          ],
          actions: [
            { type: 'Action.OpenUrl', title: 'Open domain', url: message.links.domain },
            ...(message.links.guide ? [{ type: 'Action.OpenUrl', title: 'Fixing guide', url: message.links.guide }] : []),
          ],
        },
      },
    ],
  };
}

export async function deliverTeams(http: OutboundHttp, config: IntegrationConfig<'teams'>, message: AlertMessage): Promise<void> {
  expectSuccess(await http.post(config.webhookUrl, JSON.stringify(teamsBody(message)), {}), 'Microsoft Teams');
}
