import { features, MAIL_FLOW_PLAN_MESSAGE, type User } from '@sendwell/contracts';
import type { UploadReportsAnswer } from '@sendwell/contracts';
import type { UseMutationResult } from '@tanstack/react-query';
import { Lock } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { ApiRequestError, errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/auth-provider';
import { cn } from '@/lib/utils';
import { useMailFlow, useReceivedReports, useReportAddresses, useTlsReports, useUploadReport } from '../api/mail-flow';
import { count, DEFAULT_WINDOW, groupSenders, needsFix, WINDOW_OPTIONS, type WindowDays } from '../lib/mail-flow-display';
import { FailureReportsToggle } from './failure-reports-toggle';
import { PolicyReadiness } from './policy-readiness';
import { ReceivedReports } from './received-reports';
import { ReportSetup } from './report-setup';
import { SenderFixes } from './sender-fixes';
import { SendersTable } from './senders-table';
import { TlsFailures } from './tls-failures';
import { UploadReport } from './upload-report';
import { VolumeChart } from './volume-chart';

type Upload = UseMutationResult<UploadReportsAnswer, Error, File>;
type Viewer = Pick<User, 'planType' | 'dateFormat' | 'timezone'>;

/** A 403 from the intake means the plan lost mail flow since the user was loaded: show the gate, not an error. */
const planGated = (error: unknown) => error instanceof ApiRequestError && error.status === 403;

function Upgrade({ message }: { message: string }) {
  return (
    <Card data-testid="mail-flow-upgrade">
      <CardContent className="flex flex-col items-start gap-4 p-6 sm:flex-row sm:items-center">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
          <Lock className="h-5 w-5" aria-hidden="true" />
        </span>
        <p className="flex-1 text-sm text-muted-foreground">{message}</p>
        <Link to={paths.subscription} className={buttonClass('default')}>
          View Subscription Plans
        </Link>
      </CardContent>
    </Card>
  );
}

function Panel({ title, description, children, testId, className }: { title: string; description?: ReactNode; children: ReactNode; testId?: string; className?: string }) {
  return (
    <Card data-testid={testId} className={className}>
      <CardHeader>
        <CardTitle as="h3" className="text-lg">
          {title}
        </CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** Loading, failure or the content of one read, the way the page's other cards show them. */
function Loaded<T>({ query, what, children }: { query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined }; what: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Skeleton className="h-32 w-full" />;
  if (query.isError || query.data === undefined) return <Alert variant="destructive">{errorMessage(query.error, `Failed to load ${what}. Please try again later.`)}</Alert>;
  return <>{children(query.data)}</>;
}

function WindowSelector({ days, onChange }: { days: WindowDays; onChange: (days: WindowDays) => void }) {
  return (
    <div role="group" aria-label="Report window" className="inline-flex h-10 shrink-0 items-center gap-1 self-start rounded-lg bg-muted p-1 text-muted-foreground sm:self-auto">
      {WINDOW_OPTIONS.map((d) => (
        <button
          key={d}
          type="button"
          aria-pressed={d === days}
          onClick={() => onChange(d)}
          className={cn(
            'rounded-md px-3 py-1.5 text-sm font-medium transition-all focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            d === days && 'bg-background text-foreground shadow-sm',
          )}
        >
          {d} days
        </button>
      ))}
    </div>
  );
}

function Totals({ items }: { items: ReadonlyArray<{ label: string; value: number; tone?: string; testId: string }> }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
      {items.map((i) => (
        <div key={i.label} className="rounded-lg border p-3">
          <dt className="text-xs text-muted-foreground">{i.label}</dt>
          <dd className={cn('mt-1 text-lg font-semibold tabular-nums', i.tone)} data-testid={i.testId}>
            {count(i.value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Until the first report: what to publish, with the upload for reports already received elsewhere. */
function Setup({ addresses, domainId, upload }: { addresses: NonNullable<ReturnType<typeof useReportAddresses>['data']>; domainId: number; upload: Upload }) {
  return (
    <Panel
      title="Start receiving reports"
      testId="mail-flow-setup"
      description="Publish these records at your DNS host. Receivers send aggregate reports about once a day, so the first one usually arrives within 24 to 48 hours."
    >
      <div className="space-y-6">
        <ReportSetup addresses={addresses} />
        <div className="space-y-2 border-t pt-5">
          <h4 className="text-sm font-semibold">Reports already in a mailbox?</h4>
          <UploadReport upload={upload} />
        </div>
        <div className="border-t pt-5">
          <FailureReportsToggle domainId={domainId} enabled={addresses.failureReports} />
        </div>
      </div>
    </Panel>
  );
}

function Flow({ domainId, days, viewer, addresses, upload }: { domainId: number; days: WindowDays; viewer: Viewer; addresses: NonNullable<ReturnType<typeof useReportAddresses>['data']>; upload: Upload }) {
  const flow = useMailFlow(domainId, days);
  const tls = useTlsReports(domainId, days);
  const received = useReceivedReports(domainId);
  if ([flow, tls, received].some((q) => planGated(q.error))) return <Upgrade message={MAIL_FLOW_PLAN_MESSAGE} />;

  return (
    <div className="space-y-6">
      <Panel title="Volume" testId="mail-flow-volume" description={`Messages sent as your domain over the last ${days} days, as receivers reported them.`}>
        <Loaded query={flow} what="the mail flow">
          {(f) =>
            f.messages === 0 ? (
              <p className="text-sm text-muted-foreground">No report covers these {days} days. Choose a longer window, or wait for the next reports.</p>
            ) : (
              <div className="space-y-5">
                <Totals
                  items={[
                    { label: 'Messages', value: f.messages, testId: 'total-messages' },
                    { label: 'Passing DMARC', value: f.dmarcPass, tone: 'text-green-700 dark:text-green-400', testId: 'total-pass' },
                    { label: 'Failing DMARC', value: f.dmarcFail, tone: f.dmarcFail ? 'text-red-700 dark:text-red-400' : undefined, testId: 'total-fail' },
                    { label: 'Forwarded', value: f.forwarded, testId: 'total-forwarded' },
                    { label: 'Reports', value: f.reports, testId: 'total-reports' },
                  ]}
                />
                <VolumeChart flow={f} />
              </div>
            )
          }
        </Loaded>
      </Panel>

      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <Panel title="Policy readiness" testId="mail-flow-readiness" description="Whether your DMARC policy can take its next step without losing legitimate mail.">
          <Loaded query={flow} what="the policy readiness">
            {(f) => <PolicyReadiness readiness={f.readiness} />}
          </Loaded>
        </Panel>
        <Panel title="TLS reports" testId="mail-flow-tls" description="Deliveries to your MX hosts that could not be encrypted as your policy asks, by cause.">
          <Loaded query={tls} what="the TLS reports">
            {(t) => <TlsFailures tls={t} />}
          </Loaded>
        </Panel>
      </div>

      <Panel title="Senders" testId="mail-flow-senders" description="Every source that sent mail as your domain, with how much of it aligns.">
        <Loaded query={flow} what="the senders">
          {(f) => {
            const { own, forwarded } = groupSenders(f.senders);
            if (f.senders.length === 0) return <p className="text-sm text-muted-foreground">No senders in this window.</p>;
            return (
              <div className="space-y-6">
                {own.length ? <SendersTable senders={own} caption="Your senders and unknown sources" testId="senders-own" /> : null}
                <SenderFixes senders={own.filter(needsFix)} />
                {forwarded.length ? (
                  <div className="space-y-2 border-t pt-5">
                    <h4 className="text-sm font-semibold">Forwarded mail</h4>
                    <p className="text-xs text-muted-foreground">
                      Relayed by forwarders and mailing lists. Forwarding breaks SPF by design; DKIM usually survives. Not spoofing, and not counted as failing.
                    </p>
                    <SendersTable senders={forwarded} caption="Forwarded mail" testId="senders-forwarded" />
                  </div>
                ) : null}
              </div>
            );
          }}
        </Loaded>
      </Panel>

      <Panel title="Received reports" testId="mail-flow-reports" description="Each report as it arrived; the file itself is kept for 14 days.">
        <div className="space-y-5">
          <UploadReport upload={upload} />
          <Loaded query={received} what="the received reports">
            {(r) => <ReceivedReports received={r} dateFormat={viewer.dateFormat} timezone={viewer.timezone} />}
          </Loaded>
        </div>
      </Panel>

      <Panel title="Report settings" testId="mail-flow-settings">
        <div className="space-y-5">
          <FailureReportsToggle domainId={domainId} enabled={addresses.failureReports} />
          <details className="group border-t pt-4">
            <summary className="cursor-pointer text-sm font-medium">Report addresses and DNS records</summary>
            <div className="pt-4">
              <ReportSetup addresses={addresses} />
            </div>
          </details>
        </div>
      </Panel>
    </div>
  );
}

function MailFlowBody({ domainId, days, viewer }: { domainId: number; days: WindowDays; viewer: Viewer }) {
  const addresses = useReportAddresses(domainId);
  const upload = useUploadReport(domainId);
  if (addresses.isPending) return <Skeleton className="h-48 w-full rounded-xl" />;
  if (addresses.isError) {
    if (planGated(addresses.error)) return <Upgrade message={errorMessage(addresses.error, MAIL_FLOW_PLAN_MESSAGE)} />;
    return <Alert variant="destructive" title="Failed to load mail flow">{errorMessage(addresses.error, 'Please refresh the page or try again later.')}</Alert>;
  }
  if (addresses.data.firstReportAt === null) return <Setup addresses={addresses.data} domainId={domainId} upload={upload} />;
  return <Flow domainId={domainId} days={days} viewer={viewer} addresses={addresses.data} upload={upload} />;
}

/** The section's frame and plan gate; `viewer` is passed in so tests need no signed-in session. */
export function MailFlowView({ domainId, domainName, viewer }: { domainId: number; domainName: string; viewer: Viewer }) {
  const headingId = useId();
  const allowed = features.mailFlow(viewer.planType);
  const [days, setDays] = useState<WindowDays>(DEFAULT_WINDOW);
  // The same read as the body's (one request): the window only means something once reports exist.
  const hasReports = Boolean(useReportAddresses(domainId, { enabled: allowed }).data?.firstReportAt);
  return (
    <section aria-labelledby={headingId} className="space-y-4" data-testid="mail-flow-section">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h2 id={headingId} className="text-xl font-semibold tracking-tight">
            Mail flow
          </h2>
          <p className="text-sm text-muted-foreground">What receivers report about mail sent as {domainName}: DMARC aggregate and TLS reports.</p>
        </div>
        {allowed && hasReports ? <WindowSelector days={days} onChange={setDays} /> : null}
      </div>
      {allowed ? <MailFlowBody domainId={domainId} days={days} viewer={viewer} /> : <Upgrade message={MAIL_FLOW_PLAN_MESSAGE} />}
    </section>
  );
}

/** Mail flow on the domain's detail page (issue 25): DMARC aggregate, TLS-RPT and failure reports. */
export function MailFlowSection({ domain }: { domain: { id: number; name: string } }) {
  const user = useUser();
  return <MailFlowView domainId={domain.id} domainName={domain.name} viewer={user} />;
}
