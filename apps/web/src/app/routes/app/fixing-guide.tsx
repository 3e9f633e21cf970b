import { useParams } from 'react-router';
import { FixingGuidePage } from '@/features/fixing-guide/components/fixing-guide-page';

export function Component() {
  const { name = '', type = '' } = useParams();
  return <FixingGuidePage key={`${name}/${type}`} domainName={name.toLowerCase()} type={type} />;
}
