import { CheckCircle2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { clearStoredUser } from '@/lib/auth/session-storage';
import { useUser } from '@/lib/auth/auth-provider';
import { useRefreshUser } from '@/lib/hooks/use-refresh-user';

export const POLL_EVERY_MS = 3_000;
export const POLL_FOR_MS = 30_000;

/**
 * The payment return screen (part 2 §2.11, §4 "Payment return"): the user is re-read every 3 s until
 * the plan is no longer free, and after 30 s success is shown anyway (the webhook may still be on its way).
 */
export function ConfirmationPage() {
  const user = useUser();
  const refreshUser = useRefreshUser();
  const [timedOut, setTimedOut] = useState(false);
  const paid = user.planType !== 'free';

  useEffect(() => {
    if (paid) return;
    const started = Date.now();
    const poll = setInterval(() => {
      clearStoredUser();
      void refreshUser().catch(() => undefined);
      if (Date.now() - started >= POLL_FOR_MS) setTimedOut(true);
    }, POLL_EVERY_MS);
    return () => clearInterval(poll);
  }, [paid, refreshUser]);

  const done = paid || timedOut;
  return (
    <div className="mx-auto max-w-lg py-10">
      <Card>
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center" aria-live="polite">
          {done ? (
            <>
              <CheckCircle2 className="h-12 w-12 text-green-600" aria-hidden="true" />
              <h1 className="text-2xl font-bold">Payment Successful!</h1>
              <p className="text-sm text-muted-foreground">Your subscription is active. Add your domains and Sendwell starts monitoring them.</p>
              <div className="flex flex-wrap justify-center gap-3">
                <Link to={paths.dashboard} className={buttonClass('default')}>
                  Go to Dashboard
                </Link>
                <Link to={paths.domains} className={buttonClass('outline')}>
                  Add Domains
                </Link>
              </div>
            </>
          ) : (
            <>
              <Spinner label="Verifying payment" className="text-primary" />
              <h1 className="text-2xl font-bold">Verifying Payment...</h1>
              <p className="text-sm text-muted-foreground">This takes a few seconds.</p>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
