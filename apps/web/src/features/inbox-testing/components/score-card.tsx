import type { MailTest, MailTestAnalysis } from '@sendwell/contracts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useUser } from '@/lib/auth/auth-provider';
import { formatUserDateTime } from '@/lib/display';
import { cn } from '@/lib/utils';
import { points, scoreArithmetic } from '../lib/mail-test-display';

/** Green from 8, amber from 5, red below: the same reading as a school mark out of 10. */
function scoreTone(value: number): string {
  if (value >= 8) return 'text-green-700 dark:text-green-400';
  if (value >= 5) return 'text-amber-700 dark:text-amber-400';
  return 'text-red-700 dark:text-red-400';
}

/** The score out of 10, large, with the sum that made it and which message it was. */
export function ScoreCard({ test, analysis }: { test: MailTest; analysis: MailTestAnalysis }) {
  const user = useUser();
  const { value } = analysis.score;
  return (
    <Card data-testid="mail-test-score">
      <CardHeader>
        <CardTitle as="h3" className="text-lg">
          Score
        </CardTitle>
        <CardDescription>
          {analysis.headers.subject ? <>“{analysis.headers.subject}”</> : 'No subject'}
          {analysis.headers.from ? <> from {analysis.headers.from}</> : null}
          {test.receivedAt ? <>, received {formatUserDateTime(test.receivedAt, user.dateFormat, user.timezone)}</> : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-end gap-x-6 gap-y-2">
        <p className={cn('text-6xl font-bold tabular-nums leading-none', scoreTone(value))} data-testid="mail-test-score-value">
          {points(value)}
          <span className="text-2xl font-semibold text-muted-foreground">/10</span>
        </p>
        <p className="min-w-0 flex-1 basis-64 text-sm tabular-nums" data-testid="mail-test-score-arithmetic">
          {scoreArithmetic(analysis)}
        </p>
      </CardContent>
    </Card>
  );
}
