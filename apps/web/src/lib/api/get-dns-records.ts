import type { ApiAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiUrl, callApi } from './call-api';

const CALL = 'GET /api/domains/name/:domainName/dns-records';
const url = (name: string) => apiUrl(CALL, { domainName: name });

/** GET /api/domains/name/{domainName}/dns-records: A, MX with their addresses, SPF with its IPs, DMARC. */
export function getDnsRecords(name: string): Promise<ApiAnswer<typeof CALL>> {
  return callApi(CALL, { params: { domainName: name } });
}

export function dnsRecordsQueryOptions(name: string) {
  return queryOptions({ queryKey: [url(name)], queryFn: () => getDnsRecords(name), staleTime: 2 * 60_000 });
}

export function useDnsRecords(name: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...dnsRecordsQueryOptions(name), enabled });
}
