import { ComparisonPage } from '@/features/billing/components/comparison-page';

export function Component() {
  return <ComparisonPage />;
}
