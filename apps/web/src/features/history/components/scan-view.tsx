import type { ScanDetail } from '@sendwell/contracts';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BlacklistSection } from '@/components/checks/blacklist-section';
import { CheckFindings } from '@/components/checks/check-findings';
import { DnsRecordsSection } from '@/components/checks/dns-records-section';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth/auth-provider';
import { displayDomainStatus, domainBadgeVariant, formatUserDateTime } from '@/lib/display';
import { isPatternError, readFailureText } from '../lib/read-failure';

const triggerLabel = { scheduled: 'Scheduled scan', manual: 'Manual scan', signup: 'First scan', blacklist: 'Blacklist check' } as const;
const healthBadge = { healthy: 'secondary', warning: 'outline', critical: 'destructive' } as const;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-1 font-semibold">{children}</dd>
    </div>
  );
}

/** Back to the history page, above every scan screen. */
export function BackToHistory() {
  return (
    <Link to={paths.domainHistory} className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      Domain History
    </Link>
  );
}

/** A screen-level message (errors and empty states of the scan screens), with the way back. */
export function ScanMessage({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div className="space-y-4">
      <BackToHistory />
      <Card className="mx-auto max-w-lg text-center" data-testid={testId}>
        <CardHeader>
          <CardTitle>{title}</CardTitle>
        </CardHeader>
        {children ? <CardContent className="text-sm text-muted-foreground">{children}</CardContent> : null}
      </Card>
    </div>
  );
}

/**
 * The generic scan-available summary, shown instead of an error when a scan's data came back
 * unreadable (the "pattern" error, part 2 §2.4): the scan exists, its details cannot be drawn.
 */
export function ScanAvailableSummary({ domainName }: { domainName: string }) {
  return (
    <div className="space-y-6" data-testid="scan-summary">
      <div className="space-y-1">
        <BackToHistory />
        <h2 className="break-all text-2xl font-bold tracking-tight">{domainName}</h2>
        <p className="text-sm text-muted-foreground">Historical scan</p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle as="h3">Scan available</CardTitle>
          <CardDescription>This scan of {domainName} is kept, but its details cannot be shown here. The domain’s page has its latest results.</CardDescription>
        </CardHeader>
        <CardContent>
          <Link to={`${paths.domains}/${encodeURIComponent(domainName)}`} className={buttonClass('outline', 'sm')}>
            View {domainName}
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}

/** A failed read of a scan screen: the generic summary for the "pattern" error, else the failure with its status (part 2 §8). */
export function ScanReadFailure({ error, domainName }: { error: unknown; domainName: string }) {
  if (isPatternError(error)) return <ScanAvailableSummary domainName={domainName} />;
  return (
    <ScanMessage title="Failed to load domain details" testId="scan-error">
      <span data-testid="scan-read-failure">{readFailureText(error)}</span>
    </ScanMessage>
  );
}

export function ScanViewSkeleton() {
  return (
    <div className="space-y-4" aria-busy="true" aria-label="Loading the scan">
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-28 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/**
 * One past scan: when and how it ran, its checks with their findings, the blacklists it read and the
 * DNS records it saw (part 2 §2.4, §2.6). `changes` is what moved since the scan before, where known.
 */
export function ScanView({ detail, changes, heading }: { detail: ScanDetail; changes?: readonly string[]; heading: string }) {
  const user = useUser();
  const status = displayDomainStatus(detail.scan.overallStatus);
  return (
    <div className="space-y-6" data-testid="scan-view">
      <div className="space-y-1">
        <BackToHistory />
        <h2 className="break-all text-2xl font-bold tracking-tight">{detail.domain.name}</h2>
        <p className="text-sm text-muted-foreground">{heading}</p>
      </div>
      <Card>
        <CardContent className="pt-6">
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
            <Fact label="Scan date">{formatUserDateTime(detail.scan.createdAt, user.dateFormat, user.timezone)}</Fact>
            <Fact label="Scan type">{triggerLabel[detail.scan.trigger]}</Fact>
            <Fact label="Checks completed">
              <span data-testid="scan-passed">
                {detail.passedCount}/{detail.checkCount} checks passed
              </span>
            </Fact>
            <Fact label="Health">
              <Badge variant={healthBadge[detail.health]}>{detail.health}</Badge>
            </Fact>
            <Fact label="Overall status">
              <Badge variant={domainBadgeVariant(status)} data-testid="scan-status">
                {status}
              </Badge>
            </Fact>
          </dl>
        </CardContent>
      </Card>
      {changes && changes.length > 0 ? (
        <Alert title="What changed since the scan before">
          <ul className="list-disc space-y-0.5 pl-5" data-testid="scan-what-changed">
            {changes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {detail.checks.length === 0 ? (
        <Alert>This scan recorded no checks{detail.scan.error ? `: ${detail.scan.error}` : '.'}</Alert>
      ) : (
        <>
          <CheckFindings domainName={detail.domain.name} checks={detail.checks} />
          <CheckFindings domainName={detail.domain.name} checks={detail.checks} group="mail" />
        </>
      )}
      <DnsRecordsSection records={detail.dnsRecords} title="DNS Records" />
      <BlacklistSection check={detail.checks.find((c) => c.type === 'blacklist')} />
    </div>
  );
}
