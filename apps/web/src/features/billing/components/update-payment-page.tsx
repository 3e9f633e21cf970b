import { isPaidPlan } from '@sendwell/contracts';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { Button, buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth/auth-provider';
import { createSetupIntent, updatePaymentMethod } from '../api/billing';
import { useStripeJs } from '../lib/stripe';

/**
 * Payment method update (part 2 §2.12, §4 "Payment method change"): a setup intent, the card confirmed
 * with Stripe, its payment method saved as the one renewals use, then back to Settings. Paid plans only.
 */
export function UpdatePaymentPage() {
  const user = useUser();
  if (!isPaidPlan(user.planType)) return <Navigate to={paths.settings} replace />;
  return <UpdatePayment />;
}

function UpdatePayment() {
  const { stripe, failed: stripeFailed } = useStripeJs();
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    createSetupIntent()
      .then((answer) => live && setClientSecret(answer.clientSecret))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, []);

  return (
    <div className="mx-auto max-w-lg">
      <Card>
        <CardHeader>
          <CardTitle as="h1" className="text-xl">
            Update Payment Method
          </CardTitle>
          <CardDescription>The new card is used for your next renewal. Card details go to Stripe only.</CardDescription>
        </CardHeader>
        <CardContent>
          {failed || stripeFailed ? (
            <div className="space-y-4">
              <p role="alert" className="text-sm text-destructive">
                Failed to initialize payment setup.
              </p>
              <Link to={paths.settings} className={buttonClass('outline')}>
                Cancel
              </Link>
            </div>
          ) : stripe && clientSecret ? (
            <Elements stripe={stripe} options={{ clientSecret }}>
              <CardForm />
            </Elements>
          ) : (
            <div className="flex justify-center py-8 text-primary">
              <Spinner label="Preparing the card form" />
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function CardForm() {
  const stripe = useStripe();
  const elements = useElements();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setSaving(true);
    try {
      const { error, setupIntent } = await stripe.confirmSetup({ elements, confirmParams: { return_url: `${window.location.origin}${paths.settings}` }, redirect: 'if_required' });
      const paymentMethod = setupIntent?.payment_method;
      if (error || !paymentMethod) {
        toast({ title: 'Error', description: error?.message ?? 'Failed to update payment method.', variant: 'destructive' });
        return;
      }
      await updatePaymentMethod(typeof paymentMethod === 'string' ? paymentMethod : paymentMethod.id);
      await queryClient.invalidateQueries({ queryKey: ['/api/payment-method'] });
      toast({ title: 'Payment Method Updated', description: 'Your new card is used from the next renewal.' });
      navigate(paths.settings);
    } catch {
      toast({ title: 'Error', description: 'Failed to update payment method.', variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" aria-label="New card">
      <PaymentElement />
      <div className="flex justify-end gap-3">
        <Link to={paths.settings} className={buttonClass('outline')}>
          Cancel
        </Link>
        <Button type="submit" disabled={!stripe || !elements || saving}>
          {saving ? 'Processing...' : 'Update Payment Method'}
        </Button>
      </div>
    </form>
  );
}
