import { currencyCatalogue, features, planRules, type Currency, type PaidPlan, type PlanType } from '@sendwell/contracts';

/** How often a plan scans, from its rules. */
export function scanText(plan: PlanType): string {
  const ms = planRules[plan].scanIntervalMs;
  if (ms === null) return 'Manual scans';
  return ms >= 3_600_000 ? `Scans every ${ms / 3_600_000 === 1 ? 'hour' : `${ms / 3_600_000} hours`}` : `Scans every ${ms / 60_000} minutes`;
}

/** A paid plan's selling points, from its rules. */
export function planHighlights(plan: PaidPlan): string[] {
  const r = planRules[plan];
  return [
    `${r.domainLimit} domains`,
    scanText(plan),
    `${r.automatedReports ? r.automatedReports[0]!.toUpperCase() + r.automatedReports.slice(1) : 'No'} automated reports`,
    `${r.reportQuota} stored reports`,
    ...(features.reputation(plan) ? ['Reputation score and history', 'SSL expiry and DNS change alerts'] : ['Email alerts']),
    ...(features.chatIntegrations(plan) ? ['Slack, Teams, Jira and more'] : []),
    ...(features.marketingIntegrations(plan) ? ['Marketing platforms and webhooks', 'Priority support'] : []),
  ];
}

/** A paid plan's monthly price in `currency`, with its symbol. */
export function price(currency: Currency, plan: PaidPlan): string {
  const { symbol, monthly } = currencyCatalogue[currency];
  const amount = monthly[plan];
  return `${symbol}${Number.isInteger(amount) ? amount : amount.toFixed(2)}`;
}
