import { isPaidPlan, messages, planLabel } from '@sendwell/contracts';
import { CheckCircle2, XCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { buttonClass } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { storageKeys } from '@/config/storage-keys';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-provider';
import { useVerifyEmail } from '../api/verify-email';

/** After a successful verification the user is taken to the dashboard this much later (part 2 §9). */
export const VERIFIED_REDIRECT_MS = 2000;

/** Loading, success (logged in, then /dashboard after 2 s) or 'Verification Failed' (part 2 §2.14). */
export function VerifyEmailStatus() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() || null;
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const verification = useVerifyEmail(token);
  const answer = verification.data;

  // A plan chosen at registration continues to its payment, as a sign-up without verification does.
  const [pendingPlan] = useState(() => {
    const plan = localStorage.getItem(storageKeys.pendingPlan);
    return plan && isPaidPlan(plan) ? plan : null;
  });
  useEffect(() => {
    if (!answer) return;
    signIn(answer.token, answer.user);
    localStorage.removeItem(storageKeys.pendingPlan);
    const next = pendingPlan ? `${paths.subscription}?plan=${pendingPlan}` : paths.dashboard;
    const timer = setTimeout(() => navigate(next, { replace: true }), VERIFIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [answer, signIn, navigate, pendingPlan]);

  if (!token || verification.isError) {
    const message = !token ? messages.verificationTokenMissing : errorMessage(verification.error, 'Email verification failed');
    return (
      <section aria-labelledby="verify-title" className="space-y-4 text-center">
        <XCircle className="mx-auto h-12 w-12 text-destructive" aria-hidden="true" />
        <h2 id="verify-title" className="text-xl font-semibold">
          Verification Failed
        </h2>
        <p role="alert" className="text-sm text-muted-foreground">
          {message}
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Link to={paths.register} className={buttonClass('outline', 'default', 'flex-1')}>
            Back to Registration
          </Link>
          <Link to={paths.login} className={buttonClass('default', 'default', 'flex-1')}>
            Try Logging In
          </Link>
        </div>
      </section>
    );
  }

  if (answer) {
    return (
      <section aria-labelledby="verify-title" className="space-y-4 text-center">
        <CheckCircle2 className="mx-auto h-12 w-12 text-green-600" aria-hidden="true" />
        <h2 id="verify-title" className="text-xl font-semibold">
          Email Verified
        </h2>
        <p className="text-sm text-muted-foreground">
          {pendingPlan ? `Your account is active. Taking you to the payment for ${planLabel(pendingPlan)}…` : 'Your account is active. Taking you to your dashboard…'}
        </p>
      </section>
    );
  }

  return (
    <div className="flex flex-col items-center gap-3 py-6 text-center">
      <Spinner label="Verifying your email" className="text-primary" />
      <p className="text-sm text-muted-foreground">Verifying your email…</p>
    </div>
  );
}
