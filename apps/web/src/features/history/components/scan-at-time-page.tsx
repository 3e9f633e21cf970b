import { features } from '@sendwell/contracts';
import { useMemo } from 'react';
import { UpgradeRequiredScreen } from '@/components/ui/upgrade-required-screen';
import { useUser } from '@/lib/auth/auth-provider';
import { useHistoryOverview, useScansAt, useScanDetail } from '../api/history';
import { parseScanTimestamp, scanAtTime } from '../lib/history';
import { ScanMessage, ScanReadFailure, ScanView, ScanViewSkeleton } from './scan-view';

/**
 * /domain/{domain}/{timestamp} (part 2 §2.6): the scan within 10 minutes of a time, read from the
 * domain's scans up to 10 minutes after it (one page, newest first), with what changed since the scan
 * before it. The domain's id comes from the history overview, which lists every domain.
 */
export function ScanAtTimePage({ domainName, timestamp }: { domainName: string; timestamp: string }) {
  const user = useUser();
  const at = parseScanTimestamp(timestamp);
  if (!at) return <ScanMessage title="Invalid date" testId="scan-error" />;
  if (!features.history(user.planType)) return <UpgradeRequiredScreen description="Every scan of every domain is kept on paid plans. Upgrade to unlock:" />;
  return <ScanAtTime domainName={domainName} at={at} />;
}

function ScanAtTime({ domainName, at }: { domainName: string; at: Date }) {
  const history = useHistoryOverview();
  const domain = history.data?.find((d) => d.name === domainName && !d.isDeleted);
  const scans = useScansAt(domain?.id ?? null, at);
  const match = useMemo(() => (scans.data ? scanAtTime(scans.data.scans, at) : null), [scans.data, at]);
  const detail = useScanDetail(match?.scanId ?? null);

  if (history.isPending) return <ScanViewSkeleton />;
  if (history.isError) return <ScanReadFailure error={history.error} domainName={domainName} />;
  if (!domain) return <ScanMessage title="Domain not found or you don't have access to it." testId="scan-error" />;
  if (scans.isPending) return <ScanViewSkeleton />;
  if (scans.isError) return <ScanReadFailure error={scans.error} domainName={domainName} />;
  if (!match) return <ScanMessage title="No scan data found" testId="scan-error">There is no scan of {domainName} within 10 minutes of this time.</ScanMessage>;
  if (detail.isPending) return <ScanViewSkeleton />;
  if (detail.isError) return <ScanReadFailure error={detail.error} domainName={domainName} />;
  return <ScanView detail={detail.data} changes={match.changes} heading="Scan detail" />;
}
