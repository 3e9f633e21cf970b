import type { ServerStats } from '@sendwell/contracts';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { relativeTime } from '@/lib/display';
import { historyRunSummary, monthLabel } from '../lib/format';

/** The scan history's month partitions and the nightly job that creates and drops them (issue 28). */
export function HistoryCard({ history, now }: { history: ServerStats['history']; now: string }) {
  const { months, keptDays, lastRun } = history;
  return (
    <Card data-testid="history-card">
      <CardHeader>
        <CardTitle as="h3" className="text-lg">
          Scan history
        </CardTitle>
        <CardDescription>
          Kept in monthly partitions for {keptDays} days (the longest plan&apos;s history); an older month is dropped whole each night, after each domain&apos;s
          last scan is carried forward.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-2 text-sm">
        <p data-testid="history-months">
          {months.length === 0 ? 'No partitions.' : `${months.length} months: ${monthLabel(months[0]!)} to ${monthLabel(months.at(-1)!)}`}
        </p>
        <p data-testid="history-last-run" className="flex flex-wrap items-center gap-2">
          {lastRun === null ? (
            'Not maintained yet: the job runs at 03:45 UTC.'
          ) : (
            <>
              <Badge variant={lastRun.error === null ? 'secondary' : 'destructive'}>{lastRun.error === null ? 'OK' : 'Failed'}</Badge>
              <span title={lastRun.at}>Last run {relativeTime(lastRun.at, now)}:</span>
              <span className="text-muted-foreground">{historyRunSummary(lastRun)}</span>
            </>
          )}
        </p>
      </CardContent>
    </Card>
  );
}
