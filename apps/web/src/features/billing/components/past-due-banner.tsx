import { planLabel } from '@sendwell/contracts';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';

/**
 * A renewal that failed (Stripe's `past_due`): the plan stays while Stripe retries, and ends if every
 * retry fails. Shown on every signed-in screen, with the one step that fixes it.
 */
export function PastDueBanner({ status, plan }: { status: string | null | undefined; plan: string }) {
  if (status !== 'past_due') return null;
  return (
    <Alert variant="destructive" title="Your last payment failed" className="mb-6">
      We could not charge your card for {planLabel(plan)}. Stripe will try again over the next days; if every attempt fails, your account moves to the
      Free plan.{' '}
      <Link to="/update-payment" className="font-semibold underline underline-offset-2">
        Update your card
      </Link>
    </Alert>
  );
}
