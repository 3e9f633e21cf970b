import { features } from '@sendwell/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { mailTestsQueryOptions } from '@/features/inbox-testing/api/mail-tests';
import { InboxTestingPage } from '@/features/inbox-testing/components/inbox-testing-page';
import { userQueryOptions } from '@/lib/auth/api/get-user';

/** Starts reading the past tests while the screen's code loads; a plan without the screen is never asked (it would be refused). */
export const clientLoader = (queryClient: QueryClient) => () => {
  const user = queryClient.getQueryData(userQueryOptions().queryKey);
  if (user && features.inboxPlacement(user.planType)) void queryClient.prefetchQuery(mailTestsQueryOptions());
  return null;
};

export function Component() {
  return <InboxTestingPage />;
}
