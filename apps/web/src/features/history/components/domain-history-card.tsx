import type { HistoryDomain } from '@sendwell/contracts';
import { ChevronDown, RotateCcw } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { useUser } from '@/lib/auth/auth-provider';
import { displayDomainStatus, domainBadgeVariant, formatUserDate, relativeTime } from '@/lib/display';
import { useNow } from '@/lib/hooks/use-now';
import { cn } from '@/lib/utils';
import { useRestoreWithToasts } from '../hooks/use-restore-with-toasts';

/**
 * The timeline and the windowed scan list load when a card is first reached for (pointer or focus on
 * its header); their data (the domain's days and its pages of scans) when it is opened.
 */
const loadBody = () => import('./domain-history-body');
const DomainHistoryBody = lazy(loadBody);

export const lastScanPath = (domainName: string) => `/domain-history/${encodeURIComponent(domainName)}/last-scan`;

/** One domain of the history page (part 2 §2.3): expandable for an active domain, restorable when deleted. */
export function DomainHistoryCard({ domain }: { domain: HistoryDomain }) {
  const user = useUser();
  const now = useNow();
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const restore = useRestoreWithToasts();
  const status = displayDomainStatus(domain.status);

  const facts = (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
      <span>
        {domain.scanCount} {domain.scanCount === 1 ? 'scan' : 'scans'}
      </span>
      <span>Last scan: {domain.lastScan ? relativeTime(domain.lastScan, now) : 'Never scanned'}</span>
    </div>
  );
  const title = (
    <span className="flex flex-wrap items-center gap-2">
      <span className="break-all font-semibold">{domain.name}</span>
      <Badge variant={domainBadgeVariant(status)}>{status}</Badge>
      {domain.isDeleted ? (
        <Badge variant="destructive" data-testid="deleted-badge">
          DELETED{domain.deletedAt ? ` ${formatUserDate(domain.deletedAt, user.dateFormat, user.timezone)}` : ''}
        </Badge>
      ) : null}
    </span>
  );

  if (domain.isDeleted) {
    return (
      <Card data-testid={`history-${domain.name}`}>
        <CardHeader className="gap-1.5">
          <h3 className="text-base">{title}</h3>
          {facts}
        </CardHeader>
        <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted-foreground">Scan details removed for deleted domain</p>
          <div className="flex gap-2">
            <Button size="sm" onClick={() => void restore.run(domain.name)} disabled={restore.isPending}>
              <RotateCcw className="h-4 w-4" aria-hidden="true" />
              Restore
            </Button>
            <Link to={lastScanPath(domain.name)} className={buttonClass('outline', 'sm')} aria-label={`View details of ${domain.name}`}>
              View Details
            </Link>
          </div>
        </CardContent>
      </Card>
    );
  }

  return (
    <Card data-testid={`history-${domain.name}`}>
      <CardHeader className="p-0">
        <h3 className="text-base">
          <button type="button" className="flex w-full items-center justify-between gap-3 rounded-xl p-6 text-left hover:bg-muted/40" aria-expanded={open} aria-controls={bodyId} onPointerEnter={() => void loadBody()} onFocus={() => void loadBody()} onClick={() => setOpen((o) => !o)}>
            <span className="min-w-0 space-y-1.5">
              {title}
              {facts}
            </span>
            <ChevronDown className={cn('h-5 w-5 shrink-0 text-muted-foreground transition-transform', open && 'rotate-180')} aria-hidden="true" />
          </button>
        </h3>
      </CardHeader>
      {open ? (
        <CardContent id={bodyId} className="space-y-4">
          {domain.scans.length === 0 ? (
            <p className="text-sm text-muted-foreground">No completed scans yet. Run a scan from the domain’s page.</p>
          ) : (
            <Suspense
              fallback={
                <p role="status" data-loading className="text-sm text-muted-foreground">
                  Loading scans…
                </p>
              }
            >
              <DomainHistoryBody domainId={domain.id} domainName={domain.name} scanCount={domain.scanCount} />
            </Suspense>
          )}
        </CardContent>
      ) : null}
    </Card>
  );
}
