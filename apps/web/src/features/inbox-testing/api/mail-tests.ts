import type { ListMailTestsAnswer, MailTest, MailTestSummary } from '@sendwell/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The intake's Inbox Testing calls (issue 26). Standard and advanced plans only: the screen never asks on another plan. */
export const mailTestUrls = {
  list: '/api/mail-tests',
  one: (id: number) => `/api/mail-tests/${id}`,
  events: (id: number) => `/api/mail-tests/${id}/events`,
};

export function mailTestsQueryOptions() {
  return queryOptions({ queryKey: [mailTestUrls.list], queryFn: () => api.get<ListMailTestsAnswer>(mailTestUrls.list) });
}
export function useMailTests({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...mailTestsQueryOptions(), enabled });
}

export function mailTestQueryOptions(id: number) {
  const url = mailTestUrls.one(id);
  return queryOptions({ queryKey: [url], queryFn: () => api.get<MailTest>(url) });
}

/** A new test starts with nothing received: its whole record is the summary the POST answers. */
function unreceived(summary: MailTestSummary): MailTest {
  return { ...summary, session: null, analysis: null, error: null };
}

export function useCreateMailTest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<MailTestSummary>(mailTestUrls.list),
    onSuccess: (summary) => {
      client.setQueryData(mailTestQueryOptions(summary.id).queryKey, unreceived(summary));
      // The list gains the test and today's quota one more use.
      return client.invalidateQueries({ queryKey: mailTestsQueryOptions().queryKey });
    },
  });
}
