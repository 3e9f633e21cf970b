import { SupportPage } from '@/features/support/components/support-page';

export function Component() {
  return <SupportPage />;
}
