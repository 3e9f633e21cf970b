import { deliverabilityInsight, type DomainCheck } from '@sendwell/contracts';
import { Lightbulb } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';

const tone = { Good: 'text-green-700 dark:text-green-400', 'Needs Attention': 'text-amber-700 dark:text-amber-400', Critical: 'text-red-700 dark:text-red-400' } as const;
const bar = { Good: 'bg-green-600', 'Needs Attention': 'bg-amber-500', Critical: 'bg-red-600' } as const;
const checkTitle: Record<string, string> = { spf: 'SPF', dkim: 'DKIM', dmarc: 'DMARC', blacklist: 'Blacklists', ssl_certificate: 'SSL certificate', dns_performance: 'DNS performance' };

/** Part 2 §9: the insight score from the checks' statuses (contracts' deliverabilityInsight). */
export function DeliverabilityInsights({ checks }: { checks: readonly DomainCheck[] }) {
  if (checks.length === 0) {
    return (
      <Card data-testid="deliverability-insights">
        <CardHeader>
          <CardTitle as="h2" className="text-lg">
            Deliverability Insights
          </CardTitle>
        </CardHeader>
        <CardContent>
          <p className="text-sm text-muted-foreground">No deliverability data available for this domain yet.</p>
        </CardContent>
      </Card>
    );
  }
  const insight = deliverabilityInsight(checks.map((c) => c.status));
  const issues = checks.filter((c) => c.status === 'warning' || c.status === 'error' || c.status === 'missing');
  return (
    <Card data-testid="deliverability-insights">
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          Deliverability Insights
        </CardTitle>
        <CardDescription>An estimate of how your configuration affects inbox placement.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <p className="text-xs text-muted-foreground">Deliverability score</p>
            <p className="text-4xl font-bold tracking-tight" data-testid="insight-score">
              {insight.score}
              <span className="text-base font-normal text-muted-foreground">/100</span>
            </p>
          </div>
          <p className={cn('text-lg font-semibold', tone[insight.label])} data-testid="insight-label">
            {insight.label}
          </p>
        </div>
        <Progress value={insight.score} label={`Deliverability score ${insight.score} of 100`} barClassName={bar[insight.label]} />
        {insight.issueCount > 0 ? (
          <div className="flex items-start gap-3 rounded-lg border border-primary/30 bg-primary/5 p-3 text-sm" data-testid="insight-projection">
            <Lightbulb className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
            <p>
              Fixing {insight.issueCount === 1 ? 'the issue below' : `the ${insight.issueCount} issues below`} could improve deliverability by an estimated{' '}
              <strong>{insight.improvementText}</strong>, raising your score to <strong>{insight.projectedScore}</strong>.
            </p>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">No issues found: every check passed.</p>
        )}
        {issues.length > 0 ? (
          <ul className="space-y-2">
            {issues.map((c) => (
              <li key={c.id} className="rounded-lg border p-3 text-sm">
                <p className="font-medium">
                  {checkTitle[c.type] ?? c.type}: <span className="capitalize">{c.status}</span>
                </p>
                {c.recommendation ? <p className="mt-1 text-muted-foreground wrap-anywhere">{c.recommendation}</p> : null}
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}
