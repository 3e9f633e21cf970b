import {
  EVIDENCE_SOURCE_LABELS,
  features,
  MAILBOX_PROVIDER_NAMES,
  SENDER_REQUIREMENTS_PLAN_MESSAGE,
  type EvidenceSourceState,
  type SenderRequirement,
  type SenderRequirements,
  type User,
} from '@sendwell/contracts';
import { ChevronDown, ExternalLink, Lock } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { ApiRequestError, errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/auth-provider';
import { formatUserDate } from '@/lib/display';
import { cn } from '@/lib/utils';
import { useSenderRequirements } from '../api/get-sender-requirements';
import { countsText, SOURCE_ORDER, sourceAction, STATUS_BADGES, STATUS_LABELS } from '../lib/sender-requirements-display';

type Viewer = Pick<User, 'planType' | 'dateFormat' | 'timezone'>;

const linkClass = 'inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline';

/** A 403 means the plan lost the verdict since the user was loaded: show the gate, not an error. */
const planGated = (error: unknown) => error instanceof ApiRequestError && error.status === 403;

function Upgrade({ message }: { message: string }) {
  return (
    <div className="flex flex-col items-start gap-3 sm:flex-row sm:items-center" data-testid="sender-requirements-upgrade">
      <Lock className="hidden h-5 w-5 shrink-0 text-primary sm:block" aria-hidden="true" />
      <p className="flex-1 text-sm text-muted-foreground">{message}</p>
      <Link to={paths.subscription} className={buttonClass('default')}>
        View Subscription Plans
      </Link>
    </div>
  );
}

function ExternalLinks({ links }: { links: SenderRequirement['links'] }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1">
      {links.map((l) => (
        <li key={l.url}>
          <a href={l.url} target="_blank" rel="noopener noreferrer" className={linkClass}>
            {l.label}
            <ExternalLink className="h-3 w-3" aria-hidden="true" />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function StatusBadge({ status }: { status: SenderRequirement['status'] }) {
  const { variant, className } = STATUS_BADGES[status];
  return (
    <Badge variant={variant} className={cn('shrink-0 normal-case', className)} data-testid="requirement-status">
      <span className="sr-only">Status: </span>
      {STATUS_LABELS[status]}
    </Badge>
  );
}

function Evidence({ requirement, viewer }: { requirement: SenderRequirement; viewer: Viewer }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const items = requirement.evidence;
  if (items.length === 0) {
    return requirement.status === 'not_measurable' ? null : <p className="text-xs text-muted-foreground">No evidence yet.</p>;
  }
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ChevronDown className={cn('h-4 w-4 transition-transform', open && 'rotate-180')} aria-hidden="true" />
        {open ? 'Hide' : 'Show'} evidence ({items.length})
        <span className="sr-only"> for {requirement.title}</span>
      </button>
      {open ? (
        <ul id={listId} className="mt-2 space-y-2" data-testid="evidence-list">
          {items.map((e, i) => (
            <li key={`${e.source}-${i}`} className="rounded-md border bg-muted/40 p-3 text-sm" data-testid="evidence" data-source={e.source} data-status={e.status}>
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="font-medium">{EVIDENCE_SOURCE_LABELS[e.source]}</span>
                <span className={cn('text-xs font-semibold', e.status === 'met' ? 'text-green-700 dark:text-green-400' : 'text-red-700 dark:text-red-400')}>{STATUS_LABELS[e.status]}</span>
                <time dateTime={e.observedAt} className="text-xs text-muted-foreground">
                  {formatUserDate(e.observedAt, viewer.dateFormat, viewer.timezone)}
                </time>
              </div>
              <p className="mt-1 wrap-anywhere text-muted-foreground">{e.detail}</p>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function RequirementRow({ requirement: r, viewer }: { requirement: SenderRequirement; viewer: Viewer }) {
  const showFix = r.fix !== null && (r.status === 'unmet' || r.status === 'unknown');
  return (
    <li className="space-y-2 py-4 first:pt-0 last:pb-0" data-testid="requirement" data-id={r.id} data-status={r.status}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 flex-1 space-y-1">
          <h3 className="font-semibold">{r.title}</h3>
          <ul className="flex flex-wrap gap-1" aria-label={`${r.title} is required by`}>
            {r.providers.map((p) => (
              <li key={p}>
                <Badge variant="outline" className="font-normal normal-case">
                  {MAILBOX_PROVIDER_NAMES[p]}
                </Badge>
              </li>
            ))}
          </ul>
        </div>
        <StatusBadge status={r.status} />
      </div>
      <p className="text-sm text-muted-foreground">{r.description}</p>
      {showFix ? (
        <p className={cn('rounded-md border p-3 text-sm wrap-anywhere', r.status === 'unmet' ? 'border-destructive/40 bg-destructive/5' : 'bg-muted/40')} data-testid="requirement-fix">
          <span className="font-semibold">{r.status === 'unmet' ? 'How to fix: ' : 'How to find out: '}</span>
          {r.fix}
        </p>
      ) : null}
      {r.status === 'not_measurable' ? (
        <div className="space-y-1 text-sm" data-testid="requirement-links">
          <p className="font-medium">Only the mailbox providers see it. Check yours at:</p>
          <ExternalLinks links={r.links} />
        </div>
      ) : r.links.length ? (
        <div className="flex flex-wrap gap-x-2 text-sm" data-testid="requirement-links">
          <span className="text-muted-foreground">Read more:</span>
          <ExternalLinks links={r.links} />
        </div>
      ) : null}
      <Evidence requirement={r} viewer={viewer} />
    </li>
  );
}

/** What a source covered (its summary dates it), or why it gave nothing and what to do about it. */
function SourceLine({ source, state, mailFlowAnchor }: { source: (typeof SOURCE_ORDER)[number]; state: EvidenceSourceState; mailFlowAnchor: string }) {
  const label = EVIDENCE_SOURCE_LABELS[source];
  if (state.state === 'used') {
    return (
      <li className="text-muted-foreground" data-testid="evidence-source" data-source={source} data-state="used">
        <span className="font-medium text-foreground">{label}:</span> {state.summary}
      </li>
    );
  }
  const action = sourceAction(source, state.state, { inboxPlacement: paths.inboxPlacement, subscription: paths.subscription, mailFlowAnchor });
  return (
    <li data-testid="evidence-source" data-source={source} data-state={state.state}>
      <span className="font-medium">{label}:</span> <span className="text-muted-foreground">{state.summary}</span> {action.text ? `${action.text} ` : null}
      {action.link?.kind === 'route' ? (
        <Link to={action.link.to} className={linkClass}>
          {action.link.label}
        </Link>
      ) : action.link ? (
        <a href={action.link.to} className={linkClass}>
          {action.link.label}
        </a>
      ) : null}
    </li>
  );
}

function Verdict({ verdict, viewer, mailFlowAnchor }: { verdict: SenderRequirements; viewer: Viewer; mailFlowAnchor: string }) {
  return (
    <div className="space-y-5">
      <ul className="space-y-1.5 rounded-lg border p-3 text-sm" aria-label="Evidence sources">
        {SOURCE_ORDER.map((s) => (
          <SourceLine key={s} source={s} state={verdict.sources[s]} mailFlowAnchor={mailFlowAnchor} />
        ))}
      </ul>
      <ul className="divide-y" aria-label="Requirements">
        {verdict.requirements.map((r) => (
          <RequirementRow key={r.id} requirement={r} viewer={viewer} />
        ))}
      </ul>
    </div>
  );
}

function Counts({ verdict }: { verdict: SenderRequirements }) {
  const { headline, rest } = countsText(verdict);
  return (
    <div className="shrink-0 sm:text-right" data-testid="sender-requirements-counts">
      <p className="text-lg font-semibold" data-testid="sender-requirements-met">
        {headline}
      </p>
      {rest.length ? <p className="text-xs text-muted-foreground">{rest.join(' · ')}</p> : null}
    </div>
  );
}

function Body({ domainId, viewer, mailFlowAnchor }: { domainId: number; viewer: Viewer; mailFlowAnchor: string }) {
  const query = useSenderRequirements(domainId);
  if (query.isPending) return <Skeleton className="h-48 w-full" data-testid="sender-requirements-loading" />;
  if (query.isError) {
    if (planGated(query.error)) return <Upgrade message={errorMessage(query.error, SENDER_REQUIREMENTS_PLAN_MESSAGE)} />;
    return (
      <Alert variant="destructive" title="Failed to load the sender requirements">
        {errorMessage(query.error, 'Please refresh the page or try again later.')}
      </Alert>
    );
  }
  return <Verdict verdict={query.data} viewer={viewer} mailFlowAnchor={mailFlowAnchor} />;
}

/**
 * The Gmail, Yahoo and Microsoft bulk-sender requirements for the domain (issue 26), each with its
 * status, evidence and fix. `viewer` is passed in so tests need no signed-in session.
 */
export function SenderRequirementsView({ domainId, viewer, mailFlowAnchor }: { domainId: number; viewer: Viewer; mailFlowAnchor: string }) {
  const allowed = features.senderRequirements(viewer.planType);
  // The same read as the body's (one request), for the counts in the header.
  const verdict = useSenderRequirements(domainId, { enabled: allowed }).data;
  return (
    <Card data-testid="sender-requirements-card">
      <CardHeader>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
          <div className="space-y-1.5">
            <CardTitle as="h2" className="text-lg">
              Sender requirements
            </CardTitle>
            <CardDescription>What Gmail, Yahoo and Microsoft require of bulk senders, and the evidence for each.</CardDescription>
          </div>
          {allowed && verdict ? <Counts verdict={verdict} /> : null}
        </div>
      </CardHeader>
      <CardContent>{allowed ? <Body domainId={domainId} viewer={viewer} mailFlowAnchor={mailFlowAnchor} /> : <Upgrade message={SENDER_REQUIREMENTS_PLAN_MESSAGE} />}</CardContent>
    </Card>
  );
}

/** The card on the domain's detail page; `mailFlowAnchor` is the id of the page's Mail flow section. */
export function SenderRequirementsCard({ domainId, mailFlowAnchor }: { domainId: number; mailFlowAnchor: string }) {
  const user = useUser();
  return <SenderRequirementsView domainId={domainId} viewer={user} mailFlowAnchor={mailFlowAnchor} />;
}
