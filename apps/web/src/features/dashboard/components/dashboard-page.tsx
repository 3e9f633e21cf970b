import { planLabel } from '@sendwell/contracts';
import { ReadError } from '@/components/ui/read-error';
import { useDomains } from '@/lib/api/get-domains';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/auth-provider';
import { useNow } from '@/lib/hooks/use-now';
import { DomainOverview } from './domain-overview';
import { PreferencesDialog } from './preferences-dialog';
import { SummaryWidgets } from './summary-widgets';
import { WelcomeBanner } from './welcome-banner';

/** GET /api/domains is fresh for 3 minutes in the overview (part 1 §7). */
export const OVERVIEW_DOMAINS_STALE_MS = 3 * 60_000;

export function DashboardPage() {
  const user = useUser();
  const now = useNow();
  const domains = useDomains({ staleTime: OVERVIEW_DOMAINS_STALE_MS });
  return (
    <div className="space-y-6">
      <section aria-labelledby="welcome" className="space-y-1">
        <h2 id="welcome" className="text-2xl font-bold tracking-tight">
          Welcome{user.firstName ? `, ${user.firstName}` : ''}
        </h2>
        <p className="text-muted-foreground">
          {planLabel(user.planType)} · here is how your domains are doing.
        </p>
      </section>
      <WelcomeBanner user={user} />
      {domains.isError ? (
        <ReadError
          testId="domains-read-error"
          title="Failed to load domain data"
          message={errorMessage(domains.error, 'Please refresh the page or try again later.')}
          retrying={domains.isFetching}
          onRetry={() => void domains.refetch()}
        />
      ) : null}
      {/* Without a list the widgets would be skeletons for ever: the failure above is the whole story. */}
      {domains.isError && !domains.data ? null : <SummaryWidgets domains={domains.data} plan={user.planType} now={now} />}
      <DomainOverview user={user} domains={domains.data} isLoading={domains.isPending} now={now} />
      <PreferencesDialog user={user} />
    </div>
  );
}
