import { EXAMPLE_HOST } from '@sendwell/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { AppShell } from '@/components/layout/app-shell';
import { QuickCheckSidebar } from '@/components/layout/app-sidebar';
import { ThemeToggle } from '@/components/layout/theme-toggle';
import { sampleDomainQueryOptions } from '@/features/quick-check/api/get-sample-domain';
import { QuickCheckPage } from '@/features/quick-check/components/quick-check-page';
import type { RouteLoaderArgs } from '../lazy-route';

/** Starts the read while the screen's code loads; the screen shows its own loading and error states. */
export const clientLoader =
  (queryClient: QueryClient) =>
  ({ params }: RouteLoaderArgs) => {
    void queryClient.prefetchQuery(sampleDomainQueryOptions(params.domain ?? EXAMPLE_HOST));
    return null;
  };

export function Component() {
  const { domain = EXAMPLE_HOST } = useParams();
  return (
    <AppShell title="Quick Domain Check" sidebar={({ collapsed }) => <QuickCheckSidebar collapsed={collapsed} />} actions={<ThemeToggle />}>
      <title>{`Quick check: ${domain} · Sendwell`}</title>
      <QuickCheckPage key={domain} domain={domain} />
    </AppShell>
  );
}
