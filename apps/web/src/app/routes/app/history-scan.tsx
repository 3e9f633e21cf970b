import { useParams } from 'react-router';
import { ScanDetailPage } from '@/features/history/components/scan-detail-page';

export function Component() {
  const { name = '', scanId = '' } = useParams();
  return <ScanDetailPage key={scanId} domainName={name.toLowerCase()} scanId={scanId} />;
}
