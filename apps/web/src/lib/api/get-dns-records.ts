import type { DnsRecordsAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const url = (name: string) => `/api/domains/name/${encodeURIComponent(name)}/dns-records`;

/** GET /api/domains/name/{domainName}/dns-records: A, MX with their addresses, SPF with its IPs, DMARC. */
export function getDnsRecords(name: string): Promise<DnsRecordsAnswer> {
  return api.get<DnsRecordsAnswer>(url(name));
}

export function dnsRecordsQueryOptions(name: string) {
  return queryOptions({ queryKey: [url(name)], queryFn: () => getDnsRecords(name), staleTime: 2 * 60_000 });
}

export function useDnsRecords(name: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...dnsRecordsQueryOptions(name), enabled });
}
