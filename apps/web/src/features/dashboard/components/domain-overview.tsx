import { domainLimit, features, type Domain, type User } from '@sendwell/contracts';
import { displayDomainStatus, domainBadgeVariant, lastCheckedText, lastScanText, nextScanTime } from '@/lib/display';
import { ChevronRight, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AddDomainDialog } from '@/components/domain/add-domain-dialog';
import { UpgradeRequiredDialog } from '@/components/domain/upgrade-required-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/toast-store';
import { useDeletedDomains } from '@/lib/api/get-deleted-domains';
import { useScanProgress } from '@/lib/api/get-scan-status';
import { useScanDomain } from '@/lib/api/scan-domain';
import { errorMessage } from '@/lib/api-client';
import { CountdownChip } from './countdown-chip';

/** The soonest next scan of any domain: the server's `nextScanAt`, else last scan plus the plan's interval. */
function soonestNextScan(domains: Domain[], plan: string, now: number): Date | null {
  const times = domains
    .map((d) => (d.nextScanAt ? new Date(d.nextScanAt) : nextScanTime(plan, d.lastScan, now)))
    .filter((t): t is Date => t !== null)
    .map((t) => t.getTime());
  return times.length ? new Date(Math.min(...times)) : null;
}

const scanPhaseText: Record<string, string> = { queued: 'Scan queued…', running: 'Scan running…', completed: 'Scan complete', failed: 'Scan failed' };

/** Part 1 §2 "Domain overview": last scan line, countdown chip, Scan Now (free) or Add Domain. */
export function DomainOverview({ user, domains, isLoading, now }: { user: User; domains: Domain[] | undefined; isLoading: boolean; now: number }) {
  const deleted = useDeletedDomains();
  const scan = useScanDomain();
  const [scanId, setScanId] = useState<string | null>(null);
  const [blocked, setBlocked] = useState<string | null>(null);
  const first = domains?.[0];
  const progress = useScanProgress(first?.id, scanId, (finished) => {
    if (finished.status === 'failed') toast({ title: 'Scan Failed', description: finished.error ?? 'Failed to initiate domain scan.', variant: 'destructive' });
    setScanId(null);
  });
  const isFree = !features.scheduledScans(user.planType);
  const used = (domains?.length ?? 0) + (deleted.data?.length ?? 0);
  const atLimit = used >= domainLimit(user.planType);
  const nextScan = domains && !isFree ? soonestNextScan(domains, user.planType, now) : null;
  const scanning = scan.isPending || scanId !== null;

  const onScan = async () => {
    if (!first) {
      toast({ title: 'Scan Failed', description: 'No domain to scan', variant: 'destructive' });
      return;
    }
    try {
      const answer = await scan.mutateAsync(first.id);
      setScanId(answer.scanId);
      toast({ title: 'Scan Initiated', description: 'Domain scan has been started. Results will appear shortly.' });
    } catch (error) {
      toast({ title: 'Scan Failed', description: errorMessage(error, 'Failed to initiate domain scan.'), variant: 'destructive' });
    }
  };

  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle>Domain Overview</CardTitle>
          {/* A failed read has no line: the page says it failed, this must not say it is still loading. */}
          {isLoading || domains ? (
            <CardDescription data-testid="last-scan-line">{domains ? lastScanText(domains.map((d) => d.lastScan), now) : 'Loading scan data...'}</CardDescription>
          ) : null}
          {nextScan ? <CountdownChip nextScanAt={nextScan} /> : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {isFree && first ? (
            <Button onClick={onScan} disabled={scanning}>
              <RefreshCw className={scanning ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden="true" />
              {scanning ? 'Scanning...' : 'Scan Now'}
            </Button>
          ) : !atLimit && domains ? (
            <AddDomainDialog />
          ) : null}
        </div>
      </CardHeader>
      <CardContent>
        {scanId && progress.data ? (
          <p role="status" className="mb-3 text-sm text-muted-foreground" data-testid="scan-phase">
            {scanPhaseText[progress.data.status]}
          </p>
        ) : null}
        {domains && domains.length === 0 ? (
          <div className="rounded-lg border border-dashed p-6 text-center">
            <p className="font-medium">No domains added yet</p>
            <p className="mt-1 text-sm text-muted-foreground">Add your first domain to start monitoring its health.</p>
          </div>
        ) : null}
        {domains && domains.length > 0 ? (
          <ul className="divide-y rounded-lg border">
            {domains.map((d) => {
              const status = displayDomainStatus(d.status);
              const body = (
                <>
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{d.name}</span>
                    <span className="block text-xs text-muted-foreground">{lastCheckedText(d.lastScan, now)}</span>
                  </span>
                  <span className="flex items-center gap-2">
                    <Badge variant={domainBadgeVariant(status)}>{status}</Badge>
                    {!isFree ? <ChevronRight className="h-4 w-4 text-muted-foreground" aria-hidden="true" /> : null}
                  </span>
                </>
              );
              return (
                <li key={d.id}>
                  {isFree ? (
                    // Free plan: the detail is blocked with the upgrade prompt (part 1 §6).
                    <button type="button" onClick={() => setBlocked(d.name)} className="flex w-full items-center justify-between gap-3 p-3 text-left hover:bg-accent">
                      {body}
                    </button>
                  ) : (
                    <Link to={`/domains/${encodeURIComponent(d.name)}`} className="flex items-center justify-between gap-3 p-3 hover:bg-accent">
                      {body}
                    </Link>
                  )}
                </li>
              );
            })}
          </ul>
        ) : null}
        <UpgradeRequiredDialog open={blocked !== null} onOpenChange={(open) => !open && setBlocked(null)} domainName={blocked ?? undefined} />
      </CardContent>
    </Card>
  );
}
