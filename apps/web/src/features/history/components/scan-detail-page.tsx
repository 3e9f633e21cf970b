import { ApiRequestError } from '@/lib/api-client';
import { useScanDetail } from '../api/history';
import { isPatternError } from '../lib/read-failure';
import { ScanMessage, ScanReadFailure, ScanView, ScanViewSkeleton } from './scan-view';

/** /domain-history/{domainName}/scan/{scanId} (part 2 §2.4): one scan of the user's, by id. */
export function ScanDetailPage({ domainName, scanId }: { domainName: string; scanId: string }) {
  const detail = useScanDetail(scanId);
  if (detail.isPending) return <ScanViewSkeleton />;
  if (detail.isError) {
    const missing = detail.error instanceof ApiRequestError && (detail.error.status === 404 || detail.error.status === 400);
    // The "pattern" error shows the summary whatever came with it (part 2 §2.4).
    if (missing && !isPatternError(detail.error)) return <ScanMessage title="Scan details not found" testId="scan-error" />;
    return <ScanReadFailure error={detail.error} domainName={domainName} />;
  }
  // A scan id under another domain's name is not that domain's scan.
  if (detail.data.domain.name !== domainName) return <ScanMessage title="Scan details not found" testId="scan-error" />;
  return <ScanView detail={detail.data} heading="Historical scan" />;
}
