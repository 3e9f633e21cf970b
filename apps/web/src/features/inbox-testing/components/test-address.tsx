import type { MailTest } from '@sendwell/contracts';
import { Clock } from 'lucide-react';
import { CopyValue } from '@/components/ui/copy-value';
import { useUser } from '@/lib/auth/auth-provider';
import { useNow } from '@/lib/hooks/use-now';
import { openUntilText } from '../lib/mail-test-display';

/** The test's address with its copy button, and how long it takes mail. */
export function TestAddress({ test }: { test: MailTest }) {
  const user = useUser();
  const now = useNow(15_000);
  return (
    <div className="space-y-2" data-testid="mail-test-address">
      <p className="text-sm font-medium">Send your message to</p>
      <CopyValue label="Address" value={test.address} />
      <p className="flex items-center gap-1.5 text-sm text-muted-foreground" data-testid="mail-test-open-until">
        <Clock className="h-4 w-4" aria-hidden="true" />
        {openUntilText(test.expiresAt, now, user.timezone)}
      </p>
    </div>
  );
}
