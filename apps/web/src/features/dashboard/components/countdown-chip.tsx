import { countdownText } from '@/lib/display';
import { Clock } from 'lucide-react';
import { useNow } from '@/lib/hooks/use-now';

/** Refreshed every minute (part 1 §2). */
export const COUNTDOWN_REFRESH_MS = 60_000;

/** The overview's next-scan chip for plans with scheduled scans, in the contracts' wording. */
export function CountdownChip({ nextScanAt }: { nextScanAt: string | Date }) {
  const now = useNow(COUNTDOWN_REFRESH_MS);
  return (
    <span
      data-testid="countdown-chip"
      className="inline-flex items-center gap-1.5 rounded-full border border-primary/30 bg-primary/10 px-3 py-1 text-xs font-medium text-primary dark:text-blue-300"
    >
      <Clock className="h-3.5 w-3.5" aria-hidden="true" />
      {countdownText(nextScanAt, now)}
    </span>
  );
}
