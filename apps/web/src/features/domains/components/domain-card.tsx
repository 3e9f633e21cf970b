import { features, reputationCardLabel, type Domain } from '@sendwell/contracts';
import { displayDomainStatus, domainBadgeVariant, lastCheckedText } from '@/lib/display';
import { ArrowRight, Globe, Minus, Trash2, TrendingDown, TrendingUp } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';
import { ReadError } from '@/components/ui/read-error';
import { Skeleton } from '@/components/ui/skeleton';
import { useDomainChecks } from '@/lib/api/get-domain-checks';
import { useDomainReputation } from '@/lib/api/get-domain-reputation';
import { cn } from '@/lib/utils';
import { CheckRows } from './check-rows';

export const detailPath = (name: string) => `/domains/${encodeURIComponent(name)}`;

const trendIcon = { improving: TrendingUp, declining: TrendingDown, stable: Minus } as const;

function ReputationBlock({ domainId }: { domainId: number }) {
  const reputation = useDomainReputation(domainId);
  if (reputation.isPending) return <Skeleton className="h-14 w-full" />;
  // A failed read is not "no score yet": that is only a successful answer of null.
  if (reputation.isError && reputation.data === undefined) {
    return (
      <ReadError
        testId="reputation-read-error"
        title="Couldn't load the reputation score."
        message="The score could not be read just now."
        retrying={reputation.isFetching}
        onRetry={() => void reputation.refetch()}
      />
    );
  }
  const data = reputation.data;
  if (!data) {
    return (
      <div className="rounded-lg bg-muted/60 p-3 text-xs text-muted-foreground" data-testid="reputation-block">
        Reputation score: available after the first daily calculation.
      </div>
    );
  }
  const label = reputationCardLabel(data.score);
  const Icon = trendIcon[data.trend];
  return (
    <div className="flex items-center justify-between rounded-lg bg-muted/60 p-3" data-testid="reputation-block">
      <div>
        <p className="text-xs text-muted-foreground">Reputation score</p>
        <p className="text-xl font-bold">
          {data.score}
          <span className="text-sm font-normal text-muted-foreground">/100</span>
        </p>
      </div>
      <div className="flex flex-col items-end gap-1">
        <Badge variant={label === 'Excellent' ? 'secondary' : label === 'Good' ? 'outline' : 'destructive'}>{label}</Badge>
        <span className="flex items-center gap-1 text-xs capitalize text-muted-foreground">
          <Icon className="h-3.5 w-3.5" aria-hidden="true" />
          {data.trend}
        </span>
      </div>
    </div>
  );
}

/** A domain above the plan's limit after a downgrade: kept and shown, not scanned (the server refuses). */
export function ScanPausedNote() {
  return (
    <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-xs text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100" data-testid="scan-paused">
      <strong>Scans paused:</strong> this domain is above your plan&apos;s limit. <Link className="underline" to="/subscription">Upgrade your plan</Link> or remove
      a domain to scan it again.
    </p>
  );
}

/** One domain of the list (part 1 §2): name, status, the six rows, reputation (standard+), footer. */
export function DomainCard({ domain, plan, now, onRemove }: { domain: Domain; plan: string; now: number; onRemove: (domain: Domain) => void }) {
  const navigate = useNavigate();
  const checks = useDomainChecks(domain.id);
  const status = displayDomainStatus(domain.status);
  return (
    <Card
      data-testid="domain-card"
      onClick={(e) => {
        // Clicks on the footer's own controls are theirs; anywhere else opens the detail.
        if ((e.target as HTMLElement).closest('a,button')) return;
        navigate(detailPath(domain.name));
      }}
      className="flex cursor-pointer flex-col transition-shadow hover:shadow-md"
    >
      <CardHeader className="flex-row items-center justify-between gap-3 space-y-0 pb-3">
        <div className="flex min-w-0 items-center gap-2">
          <Globe className="h-5 w-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <h3 className="break-all text-lg font-semibold leading-tight">
            {domain.name}
          </h3>
        </div>
        <Badge variant={domainBadgeVariant(status)} data-testid="domain-status">
          {status}
        </Badge>
      </CardHeader>
      <CardContent className="flex-1 space-y-3">
        {domain.scanPaused ? <ScanPausedNote /> : null}
        {checks.isError && !checks.data ? (
          // Without this the rows would stay skeletons for ever (CheckRows reads no data as loading).
          <ReadError
            testId="checks-read-error"
            title="Couldn't load this domain's checks."
            message="The latest results could not be read just now."
            retrying={checks.isFetching}
            onRetry={() => void checks.refetch()}
          />
        ) : (
          <CheckRows checks={checks.data} scanned={domain.lastScan !== null} />
        )}
        {features.reputation(plan) ? <ReputationBlock domainId={domain.id} /> : null}
      </CardContent>
      <CardFooter className={cn('flex-wrap justify-between gap-2 border-t pt-4')}>
        <div className="flex items-center gap-1">
          <Link to={detailPath(domain.name)} className={buttonClass('outline', 'sm')}>
            View Details
            <ArrowRight className="h-4 w-4" aria-hidden="true" />
          </Link>
          <Button variant="ghost" size="icon" aria-label={`Remove ${domain.name}`} onClick={() => onRemove(domain)} className="text-muted-foreground hover:text-destructive">
            <Trash2 className="h-4 w-4" aria-hidden="true" />
          </Button>
        </div>
        <p className="text-xs text-muted-foreground" data-testid="last-checked">
          {lastCheckedText(domain.lastScan, now)}
        </p>
      </CardFooter>
    </Card>
  );
}

export function DomainCardSkeleton() {
  return (
    <Card className="space-y-4 p-6" data-testid="domain-card-skeleton">
      <div className="flex items-center justify-between">
        <Skeleton className="h-6 w-40" />
        <Skeleton className="h-5 w-16 rounded-full" />
      </div>
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="flex justify-between">
          <Skeleton className="h-4 w-28" />
          <Skeleton className="h-4 w-14" />
        </div>
      ))}
      <Skeleton className="h-9 w-full" />
    </Card>
  );
}
