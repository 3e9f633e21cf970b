import { features } from '@sendwell/contracts';
import { RotateCcw } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { UpgradeRequiredScreen } from '@/components/ui/upgrade-required-screen';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth/auth-provider';
import { displayDomainStatus, domainBadgeVariant, formatUserDate } from '@/lib/display';
import { useHistoryOverview, useLastScan } from '../api/history';
import { useRestoreWithToasts } from '../hooks/use-restore-with-toasts';
import { BackToHistory, ScanMessage, ScanViewSkeleton } from './scan-view';

const LOAD_FAILED = 'Failed to load scan details. The scan data may no longer be available.';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-1 font-semibold">{children}</dd>
    </div>
  );
}

/** /domain-history/{domainName}/last-scan (part 2 §2.5): what is kept of a domain, also once deleted. */
export function LastScanPage({ domainName }: { domainName: string }) {
  const user = useUser();
  if (!features.history(user.planType)) return <UpgradeRequiredScreen description="Domain history is available on paid plans. Upgrade to unlock:" />;
  return <LastScan domainName={domainName} />;
}

function LastScan({ domainName }: { domainName: string }) {
  const user = useUser();
  const navigate = useNavigate();
  // The overview has every domain (deleted ones too): its id, by name, for the summary call.
  const history = useHistoryOverview();
  const domain = history.data?.find((d) => d.name === domainName);
  const summary = useLastScan(domain?.id ?? null);
  const restore = useRestoreWithToasts();

  if (history.isPending || (domain && summary.isPending)) return <ScanViewSkeleton />;
  if (!domain || summary.isError || !summary.data) return <ScanMessage title={LOAD_FAILED} testId="scan-error" />;
  const s = summary.data;
  const date = (iso: string | null) => (iso ? formatUserDate(iso, user.dateFormat, user.timezone) : 'Never');
  const onRestore = async () => {
    if (await restore.run(s.domainName)) await navigate(paths.domainHistory);
  };
  return (
    <div className="space-y-6" data-testid="last-scan">
      <div className="space-y-1">
        <BackToHistory />
        <h2 className="flex flex-wrap items-center gap-2 break-all text-2xl font-bold tracking-tight">
          {s.domainName}
          {s.isDeletedDomainSummary ? <Badge variant="destructive">DELETED</Badge> : null}
        </h2>
        <p className="text-sm text-muted-foreground">Last-scan summary</p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle as="h3" className="text-lg">
            Summary
          </CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-3">
            <Fact label="Status">
              <Badge variant={domainBadgeVariant(displayDomainStatus(s.status))}>{displayDomainStatus(s.status)}</Badge>
            </Fact>
            <Fact label="Last scan">{date(s.summary.lastScanDate)}</Fact>
            <Fact label="Total scans">{s.summary.totalScans}</Fact>
            <Fact label="Final status">{displayDomainStatus(s.summary.domainStatus)}</Fact>
            {s.isDeletedDomainSummary ? <Fact label="Deleted on">{date(s.deletionDate)}</Fact> : null}
          </dl>
          <p className="text-sm text-muted-foreground" data-testid="last-scan-note">
            {s.summary.note}
          </p>
          {s.isDeletedDomainSummary ? (
            <Button onClick={() => void onRestore()} disabled={restore.isPending}>
              <RotateCcw className="h-4 w-4" aria-hidden="true" />
              Restore Domain
            </Button>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
