import { AlertType, alertTypeSeverity, MAILBOX_PROVIDER_NAMES, type SenderRequirement, type SenderRequirementId } from '@sendwell/contracts';
import type { MailAlertRow } from '../alerts/mail-flow-alert.repository.js';
import { listed } from './format.js';

/** One open alert per requirement: the key the unique index holds while it is open. */
export const requirementConditionKey = (id: SenderRequirementId): string => `${AlertType.SenderRequirementUnmet}:${id}`;

/** The alert for a requirement that was met and is not any more, naming the evidence that says so. */
export function requirementUnmetAlert(domain: string, requirement: SenderRequirement): MailAlertRow {
  const unmet = requirement.evidence.filter((e) => e.status === 'unmet');
  const providers = listed(requirement.providers.map((p) => MAILBOX_PROVIDER_NAMES[p]));
  return {
    type: AlertType.SenderRequirementUnmet,
    severity: alertTypeSeverity.sender_requirement_unmet,
    title: `${domain} no longer meets the ${requirement.title} sender requirement`,
    message:
      `${domain} met the ${requirement.title} requirement of ${providers} and no longer does. ${unmet.map((e) => e.detail).join(' ')}` +
      (requirement.fix ? ` ${requirement.fix}` : ''),
    details: { requirement: requirement.id, title: requirement.title, providers: requirement.providers, evidence: unmet },
    conditionKey: requirementConditionKey(requirement.id),
  };
}
