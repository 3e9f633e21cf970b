import { domainLimit, features, type Domain } from '@sendwell/contracts';
import { Globe } from 'lucide-react';
import { useState } from 'react';
import { AddDomainDialog } from '@/components/domain/add-domain-dialog';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { UpgradeRequiredScreen } from '@/components/ui/upgrade-required-screen';
import { useDeletedDomains } from '@/lib/api/get-deleted-domains';
import { useDomains } from '@/lib/api/get-domains';
import { ApiRequestError } from '@/lib/api-client';
import { useUser } from '@/lib/auth/auth-provider';
import { useNow } from '@/lib/hooks/use-now';
import { DomainCard, DomainCardSkeleton } from './domain-card';
import { QuickCheckBanner } from './quick-check-banner';
import { RecentlyDeletedPanel } from './recently-deleted-panel';
import { RemoveDomainDialog } from './remove-domain-dialog';

/** GET /api/domains is fresh for 30 s in the list (part 1 §7). */
export const LIST_DOMAINS_STALE_MS = 30_000;

function loadErrorText(error: unknown): string {
  if (error instanceof ApiRequestError) return error.apiError?.message || error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Please refresh the page or try again later.';
}

function DomainList({ plan }: { plan: string }) {
  const now = useNow();
  const domains = useDomains({ staleTime: LIST_DOMAINS_STALE_MS });
  const deleted = useDeletedDomains();
  const [removing, setRemoving] = useState<Domain | null>(null);
  const used = (domains.data?.length ?? 0) + (deleted.data?.length ?? 0);
  const canAdd = domains.data !== undefined && used < domainLimit(plan);

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Your domains</h2>
          <p className="text-sm text-muted-foreground">
            {domains.data ? `${used} of ${domainLimit(plan)} domains used (recently deleted domains count for 90 days)` : 'Monitoring SPF, DKIM, DMARC, blacklists, SSL and DNS.'}
          </p>
        </div>
        {canAdd ? <AddDomainDialog /> : null}
      </div>

      {domains.isPending ? (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3" aria-busy="true" aria-label="Loading domains">
          {Array.from({ length: 3 }, (_, i) => (
            <DomainCardSkeleton key={i} />
          ))}
        </div>
      ) : domains.isError ? (
        <Alert variant="destructive" title="Failed to load domain data">
          {loadErrorText(domains.error)}
        </Alert>
      ) : !domains.data ? (
        <Alert title="No domain data received" />
      ) : domains.data.length === 0 ? (
        <Card className="flex flex-col items-center gap-3 border-dashed p-10 text-center">
          <span className="flex h-12 w-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <Globe className="h-6 w-6" aria-hidden="true" />
          </span>
          <h3 className="text-lg font-semibold">No domains added yet</h3>
          <p className="max-w-sm text-sm text-muted-foreground">Add your first domain to start monitoring its health.</p>
          {canAdd ? <AddDomainDialog /> : null}
        </Card>
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3" aria-label="Domains">
          {domains.data.map((d) => (
            <li key={d.id} className="flex">
              <div className="w-full">
                <DomainCard domain={d} plan={plan} now={now} onRemove={setRemoving} />
              </div>
            </li>
          ))}
        </ul>
      )}

      <RecentlyDeletedPanel deleted={deleted.data} now={now} isLoading={deleted.isPending} />
      <RemoveDomainDialog domain={removing} onClose={() => setRemoving(null)} />
    </div>
  );
}

/** /domains: the list for paid plans; the upgrade-required screen on the free plan (part 1 §2, §6). */
export function DomainsPage() {
  const user = useUser();
  return (
    <div className="space-y-6">
      <QuickCheckBanner user={user} />
      {features.domainsPage(user.planType) ? (
        <DomainList plan={user.planType} />
      ) : (
        <UpgradeRequiredScreen description="Monitoring several domains, with every check in detail, is available on paid plans. Upgrade to unlock:" />
      )}
    </div>
  );
}
