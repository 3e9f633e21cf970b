import { UpdatePaymentPage } from '@/features/billing/components/update-payment-page';

export function Component() {
  return <UpdatePaymentPage />;
}
