import { isPaidPlan, paidPlans, planLabel, planRules, settingsPriceStrings, type PaidPlan, type User } from '@sendwell/contracts';
import { CreditCard, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ReadError } from '@/components/ui/read-error';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/toast-store';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useCancelSubscription } from '../api/cancel-subscription';
import { useChangePlan } from '../api/change-plan';
import { usePaymentMethod } from '../api/get-payment-method';
import { useSubscriptionStatus } from '../api/get-subscription-status';
import { useSyncSubscription } from '../api/sync-subscription';

const longDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric' });

/** A user with a subscription id who still reads as free can ask for a re-sync (part 1 §2). */
function SyncSubscription() {
  const sync = useSyncSubscription();
  const onSync = async () => {
    try {
      const answer = await sync.mutateAsync();
      toast({ title: 'Subscription Synced', description: answer.message });
    } catch (error) {
      toast({ title: 'Sync Failed', description: errorMessage(error, 'Failed to sync subscription status'), variant: 'destructive' });
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          Subscription
        </CardTitle>
        <CardDescription>Your account has a subscription but shows the Free Plan. Sync it to pick up your paid plan.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="outline" onClick={() => void onSync()} disabled={sync.isPending}>
          <RefreshCw className="h-4 w-4" aria-hidden="true" />
          {sync.isPending ? 'Syncing...' : 'Sync subscription'}
        </Button>
      </CardContent>
    </Card>
  );
}

type Confirming = { kind: 'change'; plan: PaidPlan } | { kind: 'cancel' } | null;

/**
 * Payment method, plan change and cancel (paid plans only), each change after a confirmation step.
 * A part whose call fails is left out: this screen never invents card or plan data.
 */
function PaidBilling({ user }: { user: User }) {
  const payment = usePaymentMethod({ enabled: true });
  const status = useSubscriptionStatus({ enabled: true });
  const change = useChangePlan();
  const cancel = useCancelSubscription();
  const [confirming, setConfirming] = useState<Confirming>(null);

  if (payment.isPending || status.isPending) return <Skeleton className="h-32 w-full rounded-xl" />;
  if (payment.isError && status.isError) {
    return (
      <ReadError
        testId="billing-read-error"
        title="Billing details could not be loaded"
        message="Your payment method and plan could not be read just now. Nothing has changed on your subscription."
        retrying={payment.isFetching || status.isFetching}
        onRetry={() => {
          void payment.refetch();
          void status.refetch();
        }}
      />
    );
  }

  const onChange = async (plan: PaidPlan) => {
    try {
      const answer = await change.mutateAsync(plan);
      toast({ title: 'Plan Updated', description: answer.message });
    } catch (error) {
      toast({ title: 'Cannot Change Plan', description: errorMessage(error, 'Failed to update plan. Please try again.'), variant: 'destructive' });
    }
  };
  const onCancel = async () => {
    try {
      const answer = await cancel.mutateAsync();
      toast({ title: 'Subscription Cancelled', description: `Your subscription ends on ${longDate.format(new Date(answer.cancelationDate))}.` });
    } catch {
      toast({ title: 'Error', description: 'Failed to cancel subscription. Please try again.', variant: 'destructive' });
    }
  };

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      {payment.isSuccess ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2" className="text-lg">
              Payment Method
            </CardTitle>
          </CardHeader>
          <CardContent className="flex items-center justify-between gap-3">
            {payment.data ? (
              <p className="flex items-center gap-2 text-sm">
                <CreditCard className="h-4 w-4" aria-hidden="true" />
                <span className="capitalize">{payment.data.brand}</span> ending in {payment.data.last4} · expires {String(payment.data.expMonth).padStart(2, '0')}/{payment.data.expYear}
              </p>
            ) : (
              <p className="text-sm text-muted-foreground">No card on file.</p>
            )}
            <Link to="/update-payment" className={buttonClass('outline', 'sm')}>
              Update
            </Link>
          </CardContent>
        </Card>
      ) : null}
      {status.isSuccess ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2" className="text-lg">
              Plan
            </CardTitle>
            <CardDescription>
              {planRules[user.planType as PaidPlan].label}
              {status.data.currentPeriodEnd
                ? status.data.cancelAtPeriodEnd
                  ? ` · ends ${longDate.format(new Date(status.data.currentPeriodEnd))}`
                  : ` · renews ${longDate.format(new Date(status.data.currentPeriodEnd))}`
                : ''}
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <div className="flex flex-wrap gap-2">
              {paidPlans
                .filter((p) => p !== user.planType)
                .map((p) => (
                  <Button key={p} variant="outline" size="sm" disabled={change.isPending} onClick={() => setConfirming({ kind: 'change', plan: p })}>
                    Switch to {planRules[p].label} ({settingsPriceStrings[p]}/mo)
                  </Button>
                ))}
            </div>
            {!status.data.cancelAtPeriodEnd ? (
              <Button variant="destructive" size="sm" disabled={cancel.isPending} onClick={() => setConfirming({ kind: 'cancel' })}>
                Cancel subscription
              </Button>
            ) : null}
          </CardContent>
        </Card>
      ) : null}
      <Dialog open={confirming !== null} onOpenChange={(open) => !open && setConfirming(null)}>
        <DialogContent>
          {confirming?.kind === 'change' ? (
            <>
              <DialogHeader>
                <DialogTitle>Switch to {planRules[confirming.plan].label}?</DialogTitle>
                <DialogDescription>
                  A higher plan starts now and the difference for the rest of this period is charged to your card. A lower plan starts at your next
                  billing date; until then you keep {planLabel(user.planType)}.
                </DialogDescription>
              </DialogHeader>
              <DialogFooter>
                <Button variant="outline" onClick={() => setConfirming(null)}>
                  Keep current plan
                </Button>
                <Button
                  onClick={() => {
                    setConfirming(null);
                    void onChange(confirming.plan);
                  }}
                >
                  Switch plan
                </Button>
              </DialogFooter>
            </>
          ) : confirming?.kind === 'cancel' ? (
            <>
              <DialogHeader>
                <DialogTitle>Cancel your subscription?</DialogTitle>
                <DialogDescription>You keep {planLabel(user.planType)} until the end of the period you paid for, then your account moves to the Free plan.</DialogDescription>
              </DialogHeader>
              <DialogFooter>
                <Button variant="outline" onClick={() => setConfirming(null)}>
                  Keep subscription
                </Button>
                <Button
                  variant="destructive"
                  onClick={() => {
                    setConfirming(null);
                    void onCancel();
                  }}
                >
                  Cancel subscription
                </Button>
              </DialogFooter>
            </>
          ) : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}

export function BillingSections({ user }: { user: User }) {
  if (isPaidPlan(user.planType)) return <PaidBilling user={user} />;
  if (user.stripeSubscriptionId) return <SyncSubscription />;
  return (
    <p className="text-sm text-muted-foreground">
      You are on the Free Plan.{' '}
      <Link to={paths.subscription} className="font-medium text-primary underline-offset-4 hover:underline">
        Compare plans
      </Link>
    </p>
  );
}
