import type { ListMailTestsAnswer } from '@sendwell/contracts';
import { MAIL_TEST_RETENTION_DAYS } from '@sendwell/contracts';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useUser } from '@/lib/auth/auth-provider';
import { formatUserDateTime } from '@/lib/display';
import { cn } from '@/lib/utils';
import { pastTestTitle, points, quotaText, statusBadge, statusLabel } from '../lib/mail-test-display';
import { ScrollX } from '@/components/ui/scroll-x';

/** The tests of the last 30 days, newest first; choosing one opens its results above. */
export function PastTests({ list, selectedId, onSelect }: { list: ListMailTestsAnswer; selectedId: number | null; onSelect: (id: number) => void }) {
  const user = useUser();
  return (
    <Card data-testid="past-mail-tests">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2 space-y-0">
        <div className="min-w-0 flex-1 basis-48 space-y-1">
          <CardTitle as="h3" className="text-lg">
            Past tests
          </CardTitle>
          <CardDescription>Your tests of the last {MAIL_TEST_RETENTION_DAYS} days. Choose one to see its results.</CardDescription>
        </div>
        <p className="shrink-0 text-sm font-medium tabular-nums" data-testid="mail-test-quota">
          {quotaText(list.quota)}
        </p>
      </CardHeader>
      <CardContent>
        {list.tests.length === 0 ? (
          <p className="text-sm text-muted-foreground">No tests yet. Start one with “New test”.</p>
        ) : (
          <ScrollX label="Past tests">
            <table className="w-full min-w-[40rem] text-sm">
              <thead>
                <tr className="border-b text-left text-muted-foreground">
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Message
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    From
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Score
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.tests.map((test) => {
                  const selected = test.id === selectedId;
                  return (
                    <tr key={test.id} className={cn('border-b align-top last:border-0', selected && 'bg-muted/60')} data-testid="past-mail-test" data-status={test.status}>
                      <th scope="row" className="py-2 pr-3 text-left font-normal">
                        <button
                          type="button"
                          className="break-all text-left font-medium underline decoration-primary underline-offset-4 hover:text-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                          aria-current={selected ? 'true' : undefined}
                          onClick={() => onSelect(test.id)}
                        >
                          {pastTestTitle(test)}
                        </button>
                      </th>
                      <td className="break-all py-2 pr-3">{test.fromAddress ?? <span className="text-muted-foreground">—</span>}</td>
                      <td className="whitespace-nowrap py-2 pr-3">{formatUserDateTime(test.receivedAt ?? test.createdAt, user.dateFormat, user.timezone)}</td>
                      <td className="py-2 pr-3 text-right tabular-nums" data-testid="past-mail-test-score">
                        {test.score === null ? <span className="text-muted-foreground">—</span> : `${points(test.score)}/10`}
                      </td>
                      <td className="py-2">
                        <Badge variant={statusBadge[test.status]} className="normal-case">
                          {statusLabel[test.status]}
                        </Badge>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollX>
        )}
      </CardContent>
    </Card>
  );
}
