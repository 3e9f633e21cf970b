import { features, isCoreCheckType, type Domain, type ScanStatusAnswer } from '@sendwell/contracts';
import { countdownText, displayDomainStatus, domainBadgeVariant, relativeTime } from '@/lib/display';
import { ArrowLeft, RefreshCw, SearchX } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { UpgradeRequiredScreen } from '@/components/ui/upgrade-required-screen';
import { toast } from '@/components/ui/toast-store';
import { paths } from '@/config/paths';
import { useScanDomain } from '@/lib/api/scan-domain';
import { ApiRequestError, errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/auth-provider';
import { useNearViewport } from '@/lib/hooks/use-near-viewport';
import { useNow } from '@/lib/hooks/use-now';
import { useChecksByName } from '@/lib/api/get-checks-by-name';
import { useDnsRecords } from '@/lib/api/get-dns-records';
import { useDomainByName } from '@/lib/api/get-domain-by-name';
import { useRunBlacklistCheck } from '../api/run-blacklist-check';
import { useFollowedScan } from '@/lib/hooks/use-followed-scan';
import { BlacklistSection } from '@/components/checks/blacklist-section';
import { CheckFindings } from '@/components/checks/check-findings';
import { DeliverabilityInsights } from './deliverability-insights';
import { DnsRecordsSection } from '@/components/checks/dns-records-section';
import { ReputationCard } from './reputation-card';
import { ScanProgress } from '@/components/checks/scan-progress';
import { SenderRequirementsCard } from '@/features/sender-requirements';

/** The Mail flow section's id, the target of the sender requirements' "set it up" link. */
const MAIL_FLOW_ANCHOR = 'mail-flow';

/**
 * Mail flow is the page's last section, far below the fold once the checks are drawn: its code (8.5 KB
 * gzip, a third of the page's own) and its four reads wait until the user scrolls towards it (or
 * follows the "set it up" link to it), keeping the screen's first load within 150 KB.
 */
const MailFlowSection = lazy(() => import('@/features/mail-flow').then((m) => ({ default: m.MailFlowSection })));

function DeferredMailFlow({ domain, ready }: { domain: Domain; ready: boolean }) {
  const { ref, near } = useNearViewport<HTMLDivElement>({ enabled: ready });
  const placeholder = <Skeleton className="h-48 w-full rounded-xl" data-testid="mail-flow-loading" />;
  // Until the checks above are drawn the page is short and the section would look near: wait for them.
  if (!ready || !near) return <div ref={ref}>{placeholder}</div>;
  return (
    <Suspense fallback={placeholder}>
      <MailFlowSection domain={domain} />
    </Suspense>
  );
}

function NotFound() {
  return (
    <Card className="mx-auto max-w-lg text-center" data-testid="domain-not-found">
      <CardHeader className="items-center">
        <span className="mb-2 flex h-12 w-12 items-center justify-center rounded-full bg-muted">
          <SearchX className="h-6 w-6 text-muted-foreground" aria-hidden="true" />
        </span>
        <CardTitle>Domain not found</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm text-muted-foreground">This domain doesn&apos;t exist or you don&apos;t have permission to view it.</p>
        <Link to={paths.domains} className={buttonClass('default')}>
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Back to Domains
        </Link>
      </CardContent>
    </Card>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-lg border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-1 font-semibold" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function OverviewPanel({ domain, plan, now }: { domain: Domain; plan: string; now: number }) {
  const status = displayDomainStatus(domain.status);
  const next = domain.scanPaused ? 'Paused: above your plan’s domain limit' : !features.scheduledScans(plan) ? 'Manual scans only' : domain.nextScanAt ? countdownText(domain.nextScanAt, now) : 'Not scheduled';
  return (
    <Card data-testid="overview-panel">
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          Overview
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-3">
          <div className="rounded-lg border p-3">
            <dt className="text-xs text-muted-foreground">Status</dt>
            <dd className="mt-1">
              <Badge variant={domainBadgeVariant(status)} data-testid="detail-status">
                {status}
              </Badge>
            </dd>
          </div>
          <Fact label="Last scan" value={domain.lastScan ? relativeTime(domain.lastScan, now) : 'Never scanned'} testId="detail-last-scan" />
          <Fact label="Scans" value={String(domain.scanCount)} testId="detail-scan-count" />
          <Fact label="Next scan" value={next} />
        </dl>
      </CardContent>
    </Card>
  );
}

function scanErrorText(error: unknown): string {
  if (error instanceof ApiRequestError) return errorMessage(error, 'Failed to initiate domain scan.');
  return 'Failed to initiate domain scan.';
}

function DomainDetail({ domain }: { domain: Domain }) {
  const user = useUser();
  const now = useNow();
  const checks = useChecksByName(domain.name);
  const dns = useDnsRecords(domain.name);
  const scan = useScanDomain();
  const blacklist = useRunBlacklistCheck();
  const [kind, setKind] = useState<'scan' | 'blacklist'>('scan');
  const followed = useFollowedScan(domain.id, (finished: ScanStatusAnswer) => {
    if (finished.status === 'completed') toast({ title: 'Scan complete', description: `New results for ${domain.name} are shown below.` });
    else if (kind === 'blacklist') toast({ title: 'Error', description: 'There was an error running the blacklist check. Please try again.', variant: 'destructive' });
    else toast({ title: 'Scan Failed', description: finished.error ?? 'Failed to initiate domain scan.', variant: 'destructive' });
  });
  const busy = scan.isPending || blacklist.isPending || followed.following;

  const onScan = async () => {
    setKind('scan');
    try {
      const answer = await scan.mutateAsync(domain.id);
      followed.follow(answer);
      toast({ title: 'Scan Initiated', description: 'Domain scan has been started. Results will appear shortly.' });
    } catch (error) {
      toast({ title: 'Scan Failed', description: scanErrorText(error), variant: 'destructive' });
    }
  };
  const onCheckAgain = async () => {
    setKind('blacklist');
    try {
      followed.follow(await blacklist.mutateAsync(domain.id));
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error, 'There was an error running the blacklist check. Please try again.'), variant: 'destructive' });
    }
  };

  const list = checks.data ?? [];
  const progressStatus = scan.isPending || blacklist.isPending ? 'starting' : followed.scan?.status;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0 space-y-1">
          <Link to={paths.domains} className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Domains
          </Link>
          <h2 className="break-all text-2xl font-bold tracking-tight">{domain.name}</h2>
        </div>
        <Button onClick={() => void onScan()} disabled={busy}>
          <RefreshCw className={busy ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden="true" />
          {busy ? 'Scanning...' : 'Scan now'}
        </Button>
      </div>

      {progressStatus ? <ScanProgress status={progressStatus} error={followed.scan?.error} /> : null}

      <div className={features.reputation(user.planType) ? 'grid grid-cols-1 gap-6 lg:grid-cols-2' : 'grid grid-cols-1 gap-6'}>
        <OverviewPanel domain={domain} plan={user.planType} now={now} />
        {features.reputation(user.planType) ? <ReputationCard domainId={domain.id} /> : null}
      </div>

      {checks.isPending ? (
        <Skeleton className="h-48 w-full rounded-xl" />
      ) : checks.isError ? (
        <Alert variant="destructive" title="Failed to load domain data">
          {errorMessage(checks.error, 'Please refresh the page or try again later.')}
        </Alert>
      ) : list.length === 0 ? (
        <>
          <Card className="border-dashed p-8 text-center" data-testid="no-health-data">
            <p className="font-medium">No health data available for this domain yet.</p>
            <p className="mt-1 text-sm text-muted-foreground">Run a domain scan to generate health data.</p>
          </Card>
          <DeliverabilityInsights checks={[]} />
        </>
      ) : (
        <>
          <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
            <DeliverabilityInsights checks={list.filter((c) => isCoreCheckType(c.type))} />
            <DnsRecordsSection records={dns.data} isPending={dns.isPending} isError={dns.isError} />
          </div>
          <BlacklistSection check={list.find((c) => c.type === 'blacklist')} onCheckAgain={() => void onCheckAgain()} busy={busy} />
          <CheckFindings domainName={domain.name} checks={list} />
          <CheckFindings domainName={domain.name} checks={list} group="mail" />
        </>
      )}

      <SenderRequirementsCard domainId={domain.id} mailFlowAnchor={MAIL_FLOW_ANCHOR} />

      <div id={MAIL_FLOW_ANCHOR} className="scroll-mt-20">
        <DeferredMailFlow domain={domain} ready={!checks.isPending} />
      </div>
    </div>
  );
}

/** /domains/{name} and /domain/{name} (part 2 §2.2). */
/** /domains/{domainName} (part 2 §2.2): paid plans; free sees the upgrade screen (the server answers 403 too). */
export function DomainDetailPage({ name }: { name: string }) {
  const user = useUser();
  if (!features.domainDetail(user.planType)) {
    return <UpgradeRequiredScreen description="Each domain's findings, DNS records, blacklists and fixing guides are available on paid plans. Upgrade to unlock:" />;
  }
  return <DomainDetailLoader name={name} />;
}

function DomainDetailLoader({ name }: { name: string }) {
  const domain = useDomainByName(name);
  if (domain.isPending) {
    return (
      <div className="space-y-4" aria-busy="true">
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-48 w-full rounded-xl" />
      </div>
    );
  }
  if (domain.isError) {
    const missing = domain.error instanceof ApiRequestError && (domain.error.status === 404 || domain.error.status === 400);
    if (missing) return <NotFound />;
    return (
      <Alert variant="destructive" title="Failed to load domain data">
        {errorMessage(domain.error, 'Please refresh the page or try again later.')}
      </Alert>
    );
  }
  return <DomainDetail domain={domain.data} />;
}
