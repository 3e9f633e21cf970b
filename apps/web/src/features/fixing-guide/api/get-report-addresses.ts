import type { ReportAddresses } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const url = (domainId: number) => `/api/domains/${domainId}/report-addresses`;

/** GET /api/domains/{id}/report-addresses (the intake): the domain's own DMARC and TLS-RPT report addresses. */
export function getReportAddresses(domainId: number): Promise<ReportAddresses> {
  return api.get<ReportAddresses>(url(domainId));
}

/** The addresses never change for a domain (its token is fixed), so they stay fresh for the session. */
export function reportAddressesQueryOptions(domainId: number) {
  return queryOptions({ queryKey: [url(domainId)], queryFn: () => getReportAddresses(domainId), staleTime: Infinity, retry: 1 });
}

export function useReportAddresses(domainId: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...reportAddressesQueryOptions(domainId), enabled });
}
