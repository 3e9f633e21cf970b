import { currencies, currencyCatalogue, isPaidPlan, paidPlans, planRules, type Currency, type PaidPlan } from '@sendwell/contracts';
import { CheckCircle2 } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { FeatureTable } from '@/components/pricing/pricing';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/select';
import { toast } from '@/components/ui/toast-store';
import { paths } from '@/config/paths';
import { updateCurrency } from '@/lib/api/update-currency';
import { useAuth, useUser } from '@/lib/auth/auth-provider';
import { useRefreshUser } from '@/lib/hooks/use-refresh-user';
import { planHighlights, price } from '@/lib/pricing';
import { cn } from '@/lib/utils';
import { createSubscription, updateSubscription } from '../api/billing';

/** Stripe's React components load with the dialog, when a plan is chosen, not with the plans. */
const PaymentDialog = lazy(() => import('./payment-dialog').then((m) => ({ default: m.PaymentDialog })));

/** The plan in `?plan=` opens its payment dialog after this long (part 2 §9). */
export const AUTO_OPEN_DELAY_MS = 500;

/** Plan selection (part 2 §2.10, §4 "Plan change"). */
export function SubscriptionPage() {
  const user = useUser();
  const { updateUser } = useAuth();
  const refreshUser = useRefreshUser();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [currency, setCurrency] = useState<Currency>(() => ((currencies as readonly string[]).includes(user.currency) ? (user.currency as Currency) : 'AUD'));
  const [pending, setPending] = useState<PaidPlan | null>(null);
  const [payment, setPayment] = useState<{ plan: PaidPlan; clientSecret: string } | null>(null);
  const currencyId = useId();

  const choose = useCallback(
    async (plan: PaidPlan) => {
      setPending(plan);
      try {
        // The subscription is made in the account's currency: a choice here becomes the account's first.
        if (!user.currencyLocked && currency !== user.currency) updateUser((await updateCurrency(currency)).user);
        const answer = await createSubscription(plan);
        if ('clientSecret' in answer) {
          setPayment({ plan, clientSecret: answer.clientSecret });
        } else if (answer.type === 'subscription' && answer.subscriptionId) {
          toast({ title: 'Plan Updated', description: answer.message ?? 'Your subscription plan has been updated successfully.' });
          await refreshUser();
          navigate(paths.dashboard);
        } else {
          toast({ title: 'Error', description: 'Unexpected response from payment service. Please try again.', variant: 'destructive' });
        }
      } catch {
        toast({ title: 'Error', description: 'Failed to initialize payment. Please try again.', variant: 'destructive' });
      } finally {
        setPending(null);
      }
    },
    [currency, navigate, refreshUser, updateUser, user.currency, user.currencyLocked],
  );

  // ?plan=standard (from the register-with-plan flow and upgrade links) opens its dialog by itself, once.
  const requested = params.get('plan');
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !requested || !isPaidPlan(requested) || requested === user.planType) return;
    opened.current = true;
    const timer = setTimeout(() => void choose(requested), AUTO_OPEN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [choose, requested, user.planType]);

  const onPaid = async () => {
    const plan = payment?.plan;
    setPayment(null);
    if (!plan) return;
    try {
      await updateSubscription(plan);
    } catch {
      toast({ title: 'Error', description: 'Failed to update your subscription plan. Please try again.', variant: 'destructive' });
    }
    await refreshUser();
  };

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Choose your plan</h1>
          <p className="text-sm text-muted-foreground">Monthly plans with a 30-day money-back guarantee, no setup fees, cancel anytime.</p>
        </div>
        <div className="w-56 space-y-1">
          <label htmlFor={currencyId} className="text-sm font-medium">
            Currency
          </label>
          <NativeSelect id={currencyId} value={currency} disabled={user.currencyLocked} onChange={(e) => setCurrency(e.target.value as Currency)}>
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c} ({currencyCatalogue[c].symbol})
              </option>
            ))}
          </NativeSelect>
          {user.currencyLocked ? <p className="text-xs text-muted-foreground">Locked to your first payment’s currency.</p> : null}
        </div>
      </div>

      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        {paidPlans.map((plan) => {
          const current = plan === user.planType;
          return (
            <section
              key={plan}
              aria-labelledby={`plan-${plan}`}
              data-testid={`plan-card-${plan}`}
              className={cn('flex flex-col rounded-xl border bg-card p-6', plan === 'standard' && 'border-primary ring-1 ring-primary')}
            >
              <h2 id={`plan-${plan}`} className="font-semibold">
                {planRules[plan].label}
              </h2>
              <p className="mt-2">
                <span className="text-3xl font-extrabold">{price(currency, plan)}</span> <span className="text-sm text-muted-foreground">per month</span>
              </p>
              <ul className="mt-4 flex-1 space-y-2 text-sm">
                {planHighlights(plan).map((item) => (
                  <li key={item} className="flex gap-2">
                    <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-green-600" aria-hidden="true" /> {item}
                  </li>
                ))}
              </ul>
              <Button className="mt-6 w-full" variant={current ? 'outline' : 'default'} disabled={current || pending !== null} onClick={() => void choose(plan)}>
                {current ? 'Current Plan' : pending === plan ? 'Processing...' : 'Subscribe Now'}
              </Button>
            </section>
          );
        })}
      </div>

      <FeatureTable inApp />

      {payment ? (
        <Suspense fallback={null}>
          <PaymentDialog
            plan={payment.plan}
            currency={currency}
            clientSecret={payment.clientSecret}
            open
            onOpenChange={(open) => {
              if (!open) setPayment(null);
            }}
            onPaid={onPaid}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
