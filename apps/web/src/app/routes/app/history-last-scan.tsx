import { useParams } from 'react-router';
import { LastScanPage } from '@/features/history/components/last-scan-page';

export function Component() {
  const { name = '' } = useParams();
  return <LastScanPage key={name} domainName={name.toLowerCase()} />;
}
