import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToasterHost } from '@/components/ui/toaster-host';
import { ThemeProvider } from '@/lib/theme/theme-provider';

/**
 * Everything the router's screens share. The session lives in the root route (it navigates); the
 * tooltip provider lives in the shells, the only screens with tooltips, to keep `/` light.
 */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        {children}
        <ToasterHost />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
