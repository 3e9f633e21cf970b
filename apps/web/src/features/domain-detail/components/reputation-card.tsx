import { BLACKLIST_SCORE_MAX, REPUTATION_WEIGHTS, reputationDetailLabel } from '@sendwell/contracts';
import { Minus, TrendingDown, TrendingUp } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { useDomainReputation } from '@/lib/api/get-domain-reputation';
import { useReputationHistory } from '../api/get-reputation-history';
import { ScoreChart } from './score-chart';

const trendIcon = { improving: TrendingUp, declining: TrendingDown, stable: Minus } as const;
const labelTone = { Excellent: 'text-green-700 dark:text-green-400', Good: 'text-blue-700 dark:text-blue-400', Fair: 'text-amber-700 dark:text-amber-400', Poor: 'text-red-700 dark:text-red-400' } as const;

const parts = [
  { key: 'emailAuthentication', label: 'Email authentication', max: REPUTATION_WEIGHTS.emailAuthentication },
  { key: 'securityDeliverability', label: 'Security & deliverability', max: REPUTATION_WEIGHTS.securityDeliverability },
  { key: 'configurationHealth', label: 'Configuration health', max: REPUTATION_WEIGHTS.configurationHealth },
] as const;

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** Standard and advanced only (part 2 §2.2, §9): score, label, trend, 40/35/25 breakdown, blacklist /10, chart. */
export function ReputationCard({ domainId }: { domainId: number }) {
  const reputation = useDomainReputation(domainId);
  const history = useReputationHistory(domainId);
  return (
    <Card data-testid="reputation-card">
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          Reputation Score
        </CardTitle>
        <CardDescription>Recalculated daily at 2:00 AM and after every scan.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {reputation.isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : reputation.isError ? (
          <Alert variant="destructive">Failed to load the reputation score.</Alert>
        ) : !reputation.data ? (
          <p className="text-sm text-muted-foreground">No reputation score yet. It is calculated after the first completed scan.</p>
        ) : (
          (() => {
            const data = reputation.data;
            const label = reputationDetailLabel(data.score);
            const Icon = trendIcon[data.trend];
            const blacklist = data.factors.securityDeliverability?.blacklist;
            return (
              <>
                <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
                  <p className="text-5xl font-bold tracking-tight" data-testid="reputation-score">
                    {data.score}
                    <span className="text-lg font-normal text-muted-foreground">/100</span>
                  </p>
                  <div className="pb-1">
                    <p className={`text-lg font-semibold ${labelTone[label]}`} data-testid="reputation-label">
                      {label}
                    </p>
                    <p className="flex items-center gap-1 text-sm capitalize text-muted-foreground">
                      <Icon className="h-4 w-4" aria-hidden="true" />
                      {data.trend}
                      {data.previousScore !== null ? <span className="normal-case">(previously {data.previousScore})</span> : null}
                    </p>
                  </div>
                </div>
                <div className="space-y-3">
                  {parts.map((p) => {
                    const value = data.factors.weightedScores[p.key];
                    return (
                      <div key={p.key} className="space-y-1">
                        <div className="flex justify-between text-sm">
                          <span>{p.label}</span>
                          <span className="font-medium tabular-nums">
                            {fmt(value)} / {p.max}
                          </span>
                        </div>
                        <Progress value={value} max={p.max} label={`${p.label}: ${fmt(value)} of ${p.max}`} />
                      </div>
                    );
                  })}
                  {blacklist ? (
                    <div className="flex items-center justify-between rounded-lg bg-muted/60 px-3 py-2 text-sm">
                      <span>Blacklist score</span>
                      <span className="flex items-center gap-2 font-medium tabular-nums">
                        {fmt(blacklist.score)} / {BLACKLIST_SCORE_MAX}
                        <Badge variant={blacklist.score >= BLACKLIST_SCORE_MAX ? 'secondary' : 'destructive'}>{blacklist.status}</Badge>
                      </span>
                    </div>
                  ) : null}
                </div>
                {history.data ? <ScoreChart history={history.data} /> : history.isPending ? <Skeleton className="h-40 w-full" /> : null}
              </>
            );
          })()
        )}
      </CardContent>
    </Card>
  );
}
