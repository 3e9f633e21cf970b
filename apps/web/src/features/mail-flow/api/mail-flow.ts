import type { MailFlow, MailFlowSettingsBody, ReceivedReports, ReportAddresses, TlsReports, UploadReportsAnswer } from '@sendwell/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, failure, requestHeaders } from '@/lib/api-client';
import { reportContentType, windowRange, type WindowDays } from '../lib/mail-flow-display';

/** The intake's calls for one domain (issue 25). Paid plans only: the section never asks on another plan. */
const base = (domainId: number) => `/api/domains/${domainId}`;
export const mailFlowUrls = {
  addresses: (domainId: number) => `${base(domainId)}/report-addresses`,
  settings: (domainId: number) => `${base(domainId)}/mail-flow/settings`,
  mailFlow: (domainId: number, days: WindowDays, today?: Date) => {
    const { from, to } = windowRange(days, today);
    return `${base(domainId)}/mail-flow?from=${from}&to=${to}`;
  },
  tlsReports: (domainId: number, days: WindowDays, today?: Date) => {
    const { from, to } = windowRange(days, today);
    return `${base(domainId)}/tls-reports?from=${from}&to=${to}`;
  },
  reports: (domainId: number) => `${base(domainId)}/dmarc-reports`,
};

// Reports arrive a few times a day at most: a minute of freshness spares refetches on every focus.
const STALE_MS = 60_000;

export function reportAddressesQueryOptions(domainId: number) {
  const url = mailFlowUrls.addresses(domainId);
  return queryOptions({ queryKey: [url], queryFn: () => api.get<ReportAddresses>(url), staleTime: STALE_MS });
}
export function useReportAddresses(domainId: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...reportAddressesQueryOptions(domainId), enabled });
}

export function useMailFlow(domainId: number, days: WindowDays, { enabled = true }: { enabled?: boolean } = {}) {
  const url = mailFlowUrls.mailFlow(domainId, days);
  return useQuery({ queryKey: [url], queryFn: () => api.get<MailFlow>(url), staleTime: STALE_MS, enabled });
}

export function useTlsReports(domainId: number, days: WindowDays, { enabled = true }: { enabled?: boolean } = {}) {
  const url = mailFlowUrls.tlsReports(domainId, days);
  return useQuery({ queryKey: [url], queryFn: () => api.get<TlsReports>(url), staleTime: STALE_MS, enabled });
}

export function useReceivedReports(domainId: number, { enabled = true }: { enabled?: boolean } = {}) {
  const url = mailFlowUrls.reports(domainId);
  return useQuery({ queryKey: [url], queryFn: () => api.get<ReceivedReports>(url), staleTime: STALE_MS, enabled });
}

/** Every mail-flow read of the domain, whatever its window: an upload can change all of them. */
function invalidateMailFlow(client: QueryClient, domainId: number) {
  const prefixes = [mailFlowUrls.addresses(domainId), `${base(domainId)}/mail-flow?`, `${base(domainId)}/tls-reports?`, mailFlowUrls.reports(domainId)];
  return client.invalidateQueries({ predicate: (q) => typeof q.queryKey[0] === 'string' && prefixes.some((p) => (q.queryKey[0] as string).startsWith(p)) });
}

export function useUpdateMailFlowSettings(domainId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MailFlowSettingsBody) => api.put<MailFlowSettingsBody>(mailFlowUrls.settings(domainId), body),
    onSuccess: (saved) => {
      client.setQueryData<ReportAddresses>(reportAddressesQueryOptions(domainId).queryKey, (old) => (old ? { ...old, failureReports: saved.failureReports } : old));
    },
  });
}

/**
 * POST /api/domains/{id}/dmarc-reports with the file itself as the body (not JSON, so not through
 * `api.post`): the intake reads it as received, gzip, zip, XML or a whole message.
 */
export async function uploadReport(domainId: number, file: File): Promise<UploadReportsAnswer> {
  const headers = requestHeaders(false);
  headers.set('Content-Type', reportContentType(file));
  const res = await fetch(mailFlowUrls.reports(domainId), { method: 'POST', credentials: 'include', headers, body: file });
  if (!res.ok) throw await failure(res, (text) => `${res.status}: ${text || res.statusText}`);
  return (await res.json()) as UploadReportsAnswer;
}

export function useUploadReport(domainId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadReport(domainId, file),
    onSuccess: () => invalidateMailFlow(client, domainId),
  });
}
