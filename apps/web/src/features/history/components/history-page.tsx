import { features, planLabel, scanHistoryDays } from '@sendwell/contracts';
import { History, Info } from 'lucide-react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ReadError } from '@/components/ui/read-error';
import { Skeleton } from '@/components/ui/skeleton';
import { UpgradeRequiredScreen } from '@/components/ui/upgrade-required-screen';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth/auth-provider';
import { useHistoryOverview } from '../api/history';
import { readFailureText } from '../lib/read-failure';
import { DomainHistoryCard } from './domain-history-card';

/** /domain-history (part 2 §2.3): every domain with its newest scans, deleted domains with Restore; free sees the upgrade screen. */
export function HistoryPage() {
  const user = useUser();
  if (!features.history(user.planType)) {
    return <UpgradeRequiredScreen description="Every scan of every domain, what changed between them and the score over time are kept on paid plans. Upgrade to unlock:" />;
  }
  return <DomainHistory />;
}

function DomainHistory() {
  const history = useHistoryOverview();
  const { planType } = useUser();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h2 className="text-2xl font-bold tracking-tight">Domain History</h2>
        <p className="text-sm text-muted-foreground" data-testid="history-window">
          Every scan of your domains, what changed between them, and how the score moved. {planLabel(planType)} keeps {scanHistoryDays(planType)} days of scan
          history.
        </p>
      </div>
      <Alert>
        <span className="flex items-center gap-2">
          <Info className="h-4 w-4 shrink-0" aria-hidden="true" />
          Deleted a domain by mistake? Its history is restored if you re-add it within 90 days.
        </span>
      </Alert>
      {history.isPending ? (
        <div className="space-y-3" aria-busy="true" aria-label="Loading history">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-24 w-full" />
          ))}
        </div>
      ) : history.isError ? (
        <ReadError
          testId="history-read-error"
          title="Failed to load the domain history"
          message={readFailureText(history.error)}
          retrying={history.isFetching}
          onRetry={() => void history.refetch()}
        />
      ) : history.data.length === 0 ? (
        <Card className="text-center" data-testid="history-empty">
          <CardHeader className="items-center">
            <span className="mb-2 flex h-12 w-12 items-center justify-center rounded-full bg-muted">
              <History className="h-6 w-6 text-muted-foreground" aria-hidden="true" />
            </span>
            <CardTitle as="h3">No Domains Yet</CardTitle>
            <CardDescription>Add a domain and its scans will be kept here.</CardDescription>
          </CardHeader>
          <CardContent>
            <Link to={paths.domains} className={buttonClass('default')}>
              Go to Domains
            </Link>
          </CardContent>
        </Card>
      ) : (
        <div className="space-y-3">
          {history.data.map((d) => (
            <DomainHistoryCard key={`${d.id}`} domain={d} />
          ))}
        </div>
      )}
    </div>
  );
}
