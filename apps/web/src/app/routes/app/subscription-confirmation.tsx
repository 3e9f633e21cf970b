import { ConfirmationPage } from '@/features/billing/components/confirmation-page';

export function Component() {
  return <ConfirmationPage />;
}
