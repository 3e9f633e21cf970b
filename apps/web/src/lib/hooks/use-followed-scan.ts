import type { ScanDomainAnswer, ScanStatusAnswer } from '@sendwell/contracts';
import { useState } from 'react';
import { useScanProgress } from '@/lib/api/get-scan-status';

/**
 * Starts a scan with `start` and follows it through GET …/scans/{scanId} until it completes or fails;
 * on the way every domain read is refreshed, so the page shows the new results when they exist.
 */
export function useFollowedScan(domainId: number | undefined, onFinished: (scan: ScanStatusAnswer) => void) {
  const [scanId, setScanId] = useState<string | null>(null);
  const [lastStatus, setLastStatus] = useState<ScanStatusAnswer | null>(null);
  const progress = useScanProgress(domainId, scanId, (scan) => {
    setLastStatus(scan);
    setScanId(null);
    onFinished(scan);
  });
  return {
    following: scanId !== null,
    /** The scan in progress, else the one that just finished (so "completed" stays visible). */
    scan: scanId !== null ? (progress.data ?? null) : lastStatus,
    follow: (answer: ScanDomainAnswer) => {
      setLastStatus(null);
      setScanId(answer.scanId);
    },
  };
}
