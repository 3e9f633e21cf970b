import { MAIL_TEST_EVENT, type MailTest } from '@sendwell/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { isFinished } from '../lib/mail-test-display';
import { mailTestQueryOptions, mailTestsQueryOptions, mailTestUrls } from './mail-tests';

/** How often the test is read again when its events stream cannot be opened. */
export const POLL_MS = 2_000;

/**
 * One test, kept current while it is open through GET /api/mail-tests/{id}/events: every `status`
 * event carries the whole test and replaces the cached one, so the screen moves by itself from
 * waiting to received to the results. The stream is same-origin, so the session cookie goes along
 * (EventSource cannot send the Bearer header; the auth plugin reads the cookie when there is none).
 * If the stream cannot be opened at all (no EventSource, or an answer that is not a stream), the test
 * is read again every POLL_MS instead until it is finished.
 */
export function useFollowedMailTest(id: number) {
  const client = useQueryClient();
  const [polling, setPolling] = useState(false);
  const query = useQuery({
    ...mailTestQueryOptions(id),
    refetchInterval: (q) => (polling && q.state.data && !isFinished(q.state.data.status) ? POLL_MS : false),
  });
  const status = query.data?.status;
  const open = status !== undefined && !isFinished(status);

  useEffect(() => {
    if (!open) return;
    if (typeof EventSource === 'undefined') {
      setPolling(true);
      return;
    }
    const source = new EventSource(mailTestUrls.events(id));
    source.addEventListener(MAIL_TEST_EVENT, (event) => {
      const test = JSON.parse((event as MessageEvent<string>).data) as MailTest;
      client.setQueryData(mailTestQueryOptions(id).queryKey, test);
      // The server ends the stream here; closing first keeps the browser from reconnecting to it.
      if (isFinished(test.status)) source.close();
    });
    source.addEventListener('error', () => {
      // CLOSED: the answer was no stream (refused, or not served) and the browser gives up: poll instead.
      // CONNECTING: the browser reconnects by itself, and the server's first event brings the test up to date.
      if (source.readyState === EventSource.CLOSED) setPolling(true);
    });
    return () => source.close();
  }, [client, id, open]);

  // Once a followed test finishes, the list shows its score and status.
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && status !== undefined && isFinished(status)) void client.invalidateQueries({ queryKey: mailTestsQueryOptions().queryKey });
    wasOpen.current = open;
  }, [client, open, status]);

  return { test: query.data, isPending: query.isPending, error: query.error, polling };
}
