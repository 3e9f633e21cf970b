import { Badge } from '@/components/ui/badge';
import { verdictBadge } from '../lib/mail-test-display';

/** An SPF, DKIM, DMARC, ARC or BIMI result as the protocol names it. */
export function VerdictBadge({ result }: { result: Parameters<typeof verdictBadge>[0] }) {
  return (
    <Badge variant={verdictBadge(result)} className="lowercase" data-testid="verdict">
      {result}
    </Badge>
  );
}
