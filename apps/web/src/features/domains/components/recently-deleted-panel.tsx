import { domainRestoredMessage, type DeletedDomain } from '@sendwell/contracts';
import { deletedDaysLeft, displayDomainStatus, domainBadgeVariant, isRecentlyDeleted } from '@/lib/display';
import { RotateCcw, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/toast-store';
import { useRestoreDomain } from '@/lib/api/restore-domain';

const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

/** 'Deleted {MMM d}' in English (US) (part 1 §2, §9). */
export function deletedOnText(deletedAt: string): string {
  return `Deleted ${monthDay.format(new Date(deletedAt))}`;
}

/** Part 1 §2: deletions of the last 30 days, each with days left and Re-add. */
export function RecentlyDeletedPanel({ deleted, now, isLoading }: { deleted: readonly DeletedDomain[] | undefined; now: number; isLoading?: boolean }) {
  const restore = useRestoreDomain();
  // `now` ticks once a minute, so a deletion made since the last tick can lie "in the future": read it as now.
  const recent = (deleted ?? []).filter((d) => isRecentlyDeleted(d.deletedAt, Math.max(now, Date.parse(d.deletedAt))));

  const onRestore = async (name: string) => {
    try {
      await restore.mutateAsync(name);
      toast({ title: 'Domain Restored', description: domainRestoredMessage(name) });
    } catch {
      toast({ title: 'Restore Failed', description: 'Unable to restore domain. Please try again.', variant: 'destructive' });
    }
  };

  return (
    <Card data-testid="recently-deleted">
      <CardHeader className="flex-row items-center justify-between space-y-0 pb-3">
        <CardTitle as="h2" className="flex items-center gap-2 text-lg">
          <Trash2 className="h-5 w-5 text-muted-foreground" aria-hidden="true" />
          Recently Deleted
        </CardTitle>
        <Badge variant="secondary" aria-label={`${recent.length} recently deleted`} data-testid="deleted-count">
          {recent.length}
        </Badge>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <Skeleton className="h-16 w-full" />
        ) : recent.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">No domains deleted in the last 30 days</p>
        ) : (
          <ul className="divide-y rounded-lg border">
            {recent.map((d) => {
              const status = displayDomainStatus(d.status);
              const days = deletedDaysLeft(d.deletedAt, Math.max(now, Date.parse(d.deletedAt)));
              return (
                <li key={d.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between" data-testid="deleted-row">
                  <div className="min-w-0 space-y-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="truncate font-medium">{d.name}</span>
                      <Badge variant={domainBadgeVariant(status)}>{status}</Badge>
                    </div>
                    <p className="text-xs text-muted-foreground">
                      {d.scanCount} {d.scanCount === 1 ? 'scan' : 'scans'} · {deletedOnText(d.deletedAt)}
                    </p>
                  </div>
                  <div className="flex items-center justify-between gap-3 sm:justify-end">
                    <p className="text-right text-xs">
                      <span className="block font-semibold" data-testid="days-left">
                        {days} days left
                      </span>
                      <span className="text-muted-foreground">to restore</span>
                    </p>
                    <Button variant="outline" size="sm" onClick={() => void onRestore(d.name)} disabled={restore.isPending} aria-label={`Re-add ${d.name}`}>
                      <RotateCcw className="h-4 w-4" aria-hidden="true" />
                      Re-add
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
