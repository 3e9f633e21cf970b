import { planRules, type Currency, type PaidPlan } from '@sendwell/contracts';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { price } from '@/lib/pricing';
import { confirmationUrl, useStripeJs } from '../lib/stripe';

interface PaymentDialogProps {
  plan: PaidPlan;
  currency: Currency;
  /** The subscription's first invoice's secret; null while it is being created. */
  clientSecret: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After Stripe confirmed the payment: the plan update and the user refresh. */
  onPaid: () => Promise<void>;
}

/** "Complete Your Payment" (part 2 §2.10): Stripe's Payment Element; card details go to Stripe only. */
export function PaymentDialog({ plan, currency, clientSecret, open, onOpenChange, onPaid }: PaymentDialogProps) {
  const { stripe, failed } = useStripeJs();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Complete Your Payment</DialogTitle>
          <DialogDescription>
            {planRules[plan].label}: {price(currency, plan)} per month, billed monthly. Cancel anytime.
          </DialogDescription>
        </DialogHeader>
        {failed ? (
          <p role="alert" className="text-sm text-destructive">
            Failed to initialize payment. Please try again.
          </p>
        ) : stripe && clientSecret ? (
          <Elements stripe={stripe} options={{ clientSecret }}>
            <PaymentForm onPaid={onPaid} />
          </Elements>
        ) : (
          <div className="flex justify-center py-8 text-primary">
            <Spinner label="Preparing the payment form" />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

function PaymentForm({ onPaid }: { onPaid: () => Promise<void> }) {
  const stripe = useStripe();
  const elements = useElements();
  const [processing, setProcessing] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    if (!elements.getElement('payment')) {
      toast({ title: 'Payment Error', description: 'Card element not found', variant: 'destructive' });
      return;
    }
    setProcessing(true);
    try {
      // A card that needs no redirect (most) is confirmed here; 3-D Secure comes back to the confirmation screen.
      const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: confirmationUrl() }, redirect: 'if_required' });
      if (error) {
        toast({ title: 'Payment Failed', description: error.message ?? 'An error occurred with your payment.', variant: 'destructive' });
        return;
      }
      toast({ title: 'Payment Successful', description: 'Your subscription has been updated!' });
      await onPaid();
    } catch {
      toast({ title: 'Payment Error', description: 'An unexpected error occurred. Please try again.', variant: 'destructive' });
    } finally {
      setProcessing(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" aria-label="Card payment">
      <PaymentElement />
      <Button type="submit" className="w-full" disabled={!stripe || !elements || processing}>
        {processing ? 'Processing...' : 'Subscribe Now'}
      </Button>
      <p className="text-center text-xs text-muted-foreground">Payments are processed by Stripe. Your card details never reach Sendwell.</p>
    </form>
  );
}
