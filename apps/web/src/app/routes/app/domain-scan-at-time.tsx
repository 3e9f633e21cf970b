import { useParams } from 'react-router';
import { ScanAtTimePage } from '@/features/history/components/scan-at-time-page';

export function Component() {
  const { name = '', timestamp = '' } = useParams();
  return <ScanAtTimePage key={`${name}/${timestamp}`} domainName={name.toLowerCase()} timestamp={timestamp} />;
}
