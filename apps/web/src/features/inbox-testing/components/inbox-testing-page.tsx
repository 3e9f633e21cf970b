import { features, MAIL_TEST_PLAN_MESSAGE, MAIL_TEST_TTL_MINUTES, mailTestQuotaMessage, type ListMailTestsAnswer } from '@sendwell/contracts';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/auth-provider';
import { useMailTests } from '../api/mail-tests';
import { isFinished } from '../lib/mail-test-display';
import { MailTestPanel } from './mail-test-panel';
import { NewTestButton } from './new-test-button';
import { PastTests } from './past-tests';

function InboxTestingUpgrade() {
  return (
    <Alert title="Upgrade required">
      <p>{MAIL_TEST_PLAN_MESSAGE}</p>
      <Link to={paths.subscription} className={buttonClass('default', 'sm', 'mt-3')}>
        Upgrade your plan
      </Link>
    </Alert>
  );
}

function HowItWorks() {
  return (
    <Card data-testid="mail-test-intro">
      <CardHeader>
        <CardTitle as="h3" className="text-lg">
          How it works
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="list-decimal space-y-1 pl-5 text-sm">
          <li>Choose “New test” to get a one-time address, open for {MAIL_TEST_TTL_MINUTES} minutes.</li>
          <li>Send a real message to it from the system you send to customers with.</li>
          <li>Within seconds you see a score out of 10 and what to fix: connection, authentication, headers and content.</li>
        </ol>
      </CardContent>
    </Card>
  );
}

/** The test to show: the one in the address, else the newest still open one (so a reload keeps following it). */
function shownTestId(param: string | null, list: ListMailTestsAnswer | undefined): number | null {
  const fromUrl = Number(param);
  if (param && Number.isInteger(fromUrl) && fromUrl > 0) return fromUrl;
  return list?.tests.find((t) => !isFinished(t.status))?.id ?? null;
}

/** /inbox-placement (issue 26): send a real message to a one-time address and read what a mailbox provider would see. */
export function InboxTestingPage() {
  const user = useUser();
  const allowed = features.inboxPlacement(user.planType);
  const list = useMailTests({ enabled: allowed });
  const [params, setParams] = useSearchParams();
  const shownId = shownTestId(params.get('test'), list.data);
  const show = (id: number) => setParams({ test: String(id) });
  const quota = list.data?.quota;
  const quotaUsed = quota !== undefined && quota.used >= quota.limit;

  return (
    <div className="mx-auto max-w-6xl space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0 flex-1 basis-72 space-y-1">
          <h2 className="text-2xl font-bold tracking-tight">Inbox Testing</h2>
          <p className="text-sm text-muted-foreground">Send a real message and see what a mailbox provider sees: how it arrived, whether it is authenticated, and what in it could send it to spam.</p>
        </div>
        {allowed ? <NewTestButton onCreated={show} disabled={quotaUsed} /> : null}
      </div>

      {!allowed ? (
        <InboxTestingUpgrade />
      ) : (
        <>
          {quotaUsed ? <Alert title="Daily limit reached">{mailTestQuotaMessage(quota.limit)}</Alert> : null}
          {shownId !== null ? <MailTestPanel key={shownId} id={shownId} onCreated={show} /> : <HowItWorks />}
          {list.isPending ? (
            <Skeleton className="h-40 w-full" />
          ) : list.data ? (
            <PastTests list={list.data} selectedId={shownId} onSelect={show} />
          ) : (
            <Alert variant="destructive" title="Past tests could not be loaded">
              {errorMessage(list.error, 'Please try again.')}
            </Alert>
          )}
        </>
      )}
    </div>
  );
}
