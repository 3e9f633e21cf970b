import type { DomainCheck } from '@sendwell/contracts';
import { ExternalLink, RefreshCw, ShieldCheck, ShieldAlert, ShieldQuestion } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { checkDetails } from '@/lib/check-details';
import { cn } from '@/lib/utils';

const siteBadge = { clean: 'secondary', listed: 'destructive', unknown: 'default' } as const;
const siteIcon = { clean: ShieldCheck, listed: ShieldAlert, unknown: ShieldQuestion } as const;

/**
 * Per-list status with lookup and removal links (part 2 §2.2, §2.4, §3). On the live detail page
 * "Check again" starts a new run; its progress is shown above by the page, and the list refreshes when
 * the run completes. A past scan's lists (no `onCheckAgain`) are read-only.
 */
export function BlacklistSection({ check, onCheckAgain, busy = false }: { check: DomainCheck | undefined; onCheckAgain?: () => void; busy?: boolean }) {
  const data = checkDetails(check, 'blacklist') ?? null;
  const sites = data?.sites ?? [];
  const listed = sites.filter((s) => s.status === 'listed').length;
  return (
    <Card data-testid="blacklist-section">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle as="h2" className="text-lg">
            Blacklist Status
          </CardTitle>
          <CardDescription>
            {check
              ? `${sites.length} lists checked · ${listed === 0 ? 'not listed anywhere' : `listed on ${listed}`}${data?.totalIpsChecked !== undefined ? ` · ${data.cleanIps ?? 0} of ${data.totalIpsChecked} IPs clean` : ''}`
              : 'No blacklist results yet.'}
          </CardDescription>
        </div>
        {onCheckAgain ? (
          <Button variant="outline" size="sm" onClick={onCheckAgain} disabled={busy}>
            <RefreshCw className={cn('h-4 w-4', busy && 'animate-spin')} aria-hidden="true" />
            {busy ? 'Checking...' : 'Check again'}
          </Button>
        ) : null}
      </CardHeader>
      <CardContent>
        {data?.error ? <p className="mb-3 text-sm text-destructive">{data.error}</p> : null}
        {sites.length > 0 ? (
          <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2" aria-label="Blacklists">
            {sites.map((site) => {
              const Icon = siteIcon[site.status];
              return (
                <li key={site.name} className="flex items-center justify-between gap-2 rounded-lg border p-2.5 text-sm" data-testid="blacklist-site">
                  <span className="flex min-w-0 items-center gap-2">
                    <Icon className={cn('h-4 w-4 shrink-0', site.status === 'listed' ? 'text-destructive' : site.status === 'clean' ? 'text-green-600' : 'text-muted-foreground')} aria-hidden="true" />
                    <span className="truncate" title={site.description ?? site.name}>
                      {site.name}
                    </span>
                  </span>
                  <span className="flex shrink-0 items-center gap-2">
                    <Badge variant={siteBadge[site.status]}>{site.status}</Badge>
                    {site.lookupUrl ? (
                      <a href={site.lookupUrl} target="_blank" rel="noreferrer" className="inline-flex items-center gap-0.5 text-xs text-primary underline-offset-4 hover:underline">
                        Lookup<span className="sr-only"> on {site.name}</span>
                        <ExternalLink className="h-3 w-3" aria-hidden="true" />
                      </a>
                    ) : null}
                    {site.status === 'listed' && site.removalUrl ? (
                      <a href={site.removalUrl} target="_blank" rel="noreferrer" className="inline-flex items-center gap-0.5 text-xs font-medium text-destructive underline-offset-4 hover:underline">
                        Removal<span className="sr-only"> from {site.name}</span>
                        <ExternalLink className="h-3 w-3" aria-hidden="true" />
                      </a>
                    ) : null}
                  </span>
                </li>
              );
            })}
          </ul>
        ) : check ? (
          <p className="text-sm text-muted-foreground">The last check returned no per-list results.</p>
        ) : null}
        {data?.recommendation ? <p className="mt-3 text-sm text-muted-foreground">{data.recommendation}</p> : null}
      </CardContent>
    </Card>
  );
}
