import type { EvidenceSource, SenderRequirementStatus, SenderRequirements } from '@sendwell/contracts';
import type { BadgeVariant } from '@/lib/display';

/** A requirement's status in words: the badge says it in text, never in colour alone. */
export const STATUS_LABELS: Record<SenderRequirementStatus, string> = {
  met: 'Met',
  unmet: 'Unmet',
  unknown: 'Unknown',
  not_measurable: 'Not measurable',
};

export const STATUS_BADGES: Record<SenderRequirementStatus, { variant: BadgeVariant; className?: string }> = {
  met: { variant: 'secondary', className: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200' },
  unmet: { variant: 'destructive' },
  unknown: { variant: 'outline', className: 'text-amber-800 dark:text-amber-300' },
  not_measurable: { variant: 'outline', className: 'text-muted-foreground' },
};

/** The header's one-line summary: "6 of 9 met", then what is not. */
export function countsText(verdict: Pick<SenderRequirements, 'counts' | 'requirements'>): { headline: string; rest: string[] } {
  const { met, unmet, unknown, not_measurable: notMeasurable } = verdict.counts;
  const rest = [unmet ? `${unmet} unmet` : null, unknown ? `${unknown} unknown` : null, notMeasurable ? `${notMeasurable} only the providers can see` : null].filter((s): s is string => s !== null);
  return { headline: `${met} of ${verdict.requirements.length} met`, rest };
}

/** The order the sources are listed in. */
export const SOURCE_ORDER: readonly EvidenceSource[] = ['dns', 'mail_flow', 'mail_test'];

/**
 * What to do about a source that gave nothing, beside the intake's own summary of why (so `text` only
 * adds what the summary does not say), with where to do it: a route, or an anchor on this page.
 */
export type SourceAction = { text: string | null; link: { label: string; to: string; kind: 'route' | 'anchor' } | null };

/** Where the actions point; passed in so this file knows no route table. */
export interface SourceActionTargets {
  inboxPlacement: string;
  subscription: string;
  /** The id of the detail page's Mail flow section. */
  mailFlowAnchor: string;
}

/** What to do when a source gave no evidence: not in the plan (upgrade) or nothing yet (go and get some). */
export function sourceAction(source: EvidenceSource, state: 'plan' | 'none', to: SourceActionTargets): SourceAction {
  if (state === 'plan') return { text: null, link: { label: 'View Subscription Plans', to: to.subscription, kind: 'route' } };
  switch (source) {
    case 'dns':
      return { text: 'Run one with Scan now at the top of this page.', link: null };
    case 'mail_flow':
      return { text: null, link: { label: 'Publish the report address in Mail flow', to: `#${to.mailFlowAnchor}`, kind: 'anchor' } };
    case 'mail_test':
      return { text: null, link: { label: 'Send a test message from Inbox Testing', to: to.inboxPlacement, kind: 'route' } };
  }
}
