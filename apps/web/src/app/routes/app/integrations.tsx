import { IntegrationsPage } from '@/features/integrations/components/integrations-page';

export function Component() {
  return <IntegrationsPage />;
}
