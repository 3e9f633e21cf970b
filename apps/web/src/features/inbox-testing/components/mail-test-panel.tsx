import type { MailTest } from '@sendwell/contracts';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useFollowedMailTest } from '../api/follow-mail-test';
import { statusBadge, statusLabel } from '../lib/mail-test-display';
import { TestAddress } from './test-address';
import { TestResults } from './test-results';
import { ReadingMessage, TestExpired, TestFailed, WaitingForMessage } from './test-progress';

function TestProgress({ test, onCreated }: { test: MailTest; onCreated: (id: number) => void }) {
  switch (test.status) {
    case 'waiting':
      return (
        <>
          <TestAddress test={test} />
          <WaitingForMessage />
        </>
      );
    case 'received':
      return <ReadingMessage />;
    case 'failed':
      return <TestFailed error={test.error} />;
    case 'expired':
      return <TestExpired onCreated={onCreated} />;
    case 'done':
      return test.analysis ? null : <TestFailed error={test.error} />;
  }
}

/** One test, followed live while it is open: the address and waiting state, then its results. */
export function MailTestPanel({ id, onCreated }: { id: number; onCreated: (id: number) => void }) {
  const { test, isPending, error, polling } = useFollowedMailTest(id);
  if (isPending) return <Skeleton className="h-48 w-full" />;
  if (!test) return <Alert variant="destructive" title="This test could not be loaded">{errorMessage(error, 'Please try again.')}</Alert>;
  return (
    <section className="space-y-6" aria-label="Current test" data-testid="mail-test" data-status={test.status} data-following={polling ? 'polling' : 'events'}>
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-2 space-y-0">
          <div className="min-w-0 flex-1 basis-48 space-y-1">
            <CardTitle as="h3" className="text-lg">
              {test.status === 'done' ? 'Test results' : 'Your test'}
            </CardTitle>
            {/* While waiting, the address is shown below with its copy button. */}
            {test.status === 'waiting' ? null : <CardDescription className="break-all">{test.address}</CardDescription>}
          </div>
          <Badge variant={statusBadge[test.status]} className="shrink-0 normal-case" data-testid="mail-test-status">
            {statusLabel[test.status]}
          </Badge>
        </CardHeader>
        <CardContent aria-live="polite" className="space-y-4 empty:hidden">
          <TestProgress test={test} onCreated={onCreated} />
        </CardContent>
      </Card>
      {test.status === 'done' && test.analysis ? <TestResults test={test} analysis={test.analysis} /> : null}
    </section>
  );
}
