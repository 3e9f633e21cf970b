import { X } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { useDismissUpgradeNotification } from '@/lib/api/dismiss-upgrade-notification';
import { cn } from '@/lib/utils';

/** The × of a sign-up banner: dismisses it for good on the server (the page then reloads). */
export function DismissBannerButton({ className }: { className?: string }) {
  const dismiss = useDismissUpgradeNotification();
  return (
    <button
      type="button"
      aria-label="Dismiss banner"
      disabled={dismiss.isPending}
      onClick={() => dismiss.mutate()}
      className={cn('rounded p-1 hover:bg-black/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50 dark:hover:bg-white/10', className)}
    >
      {dismiss.isPending ? <Spinner label="Dismissing" /> : <X className="h-4 w-4" aria-hidden="true" />}
    </button>
  );
}
