import type { ScanStatus } from '@sendwell/contracts';
import { Check, Loader2, X } from 'lucide-react';
import { cn } from '@/lib/utils';

const steps = [
  { key: 'queued', label: 'Queued' },
  { key: 'running', label: 'Running' },
  { key: 'completed', label: 'Completed' },
] as const;
const order: Record<ScanStatus, number> = { queued: 0, running: 1, completed: 2, failed: 2 };

/** queued → running → completed (or failed), as the scan-status call reports it. */
export function ScanProgress({ status, error }: { status: ScanStatus | 'starting'; error?: string | null }) {
  const current = status === 'starting' ? -1 : order[status];
  const announce = status === 'starting' ? 'Starting scan…' : status === 'failed' ? `Scan failed${error ? `: ${error}` : ''}` : `Scan ${status}`;
  return (
    <div className="rounded-lg border bg-muted/40 p-3" data-testid="scan-progress" data-status={status}>
      <p className="sr-only" role="status">
        {announce}
      </p>
      <ol className="flex items-center gap-2 text-xs sm:text-sm" aria-hidden="true">
        {steps.map((step, i) => {
          const failed = status === 'failed' && i === 2;
          const done = i < current || (i === current && status === 'completed');
          const active = i === current && !done && !failed;
          return (
            <li key={step.key} className="flex flex-1 items-center gap-2">
              <span
                className={cn(
                  'flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-xs',
                  done && 'border-green-600 bg-green-600 text-white',
                  active && 'border-primary text-primary',
                  failed && 'border-destructive bg-destructive text-destructive-foreground',
                )}
              >
                {done ? <Check className="h-3.5 w-3.5" /> : failed ? <X className="h-3.5 w-3.5" /> : active ? <Loader2 className="h-3.5 w-3.5 animate-spin" /> : i + 1}
              </span>
              <span className={cn('font-medium', !done && !active && !failed && 'text-muted-foreground')}>{failed ? 'Failed' : step.label}</span>
              {i < steps.length - 1 ? <span className="h-px flex-1 bg-border" /> : null}
            </li>
          );
        })}
      </ol>
      {status === 'failed' && error ? <p className="mt-2 text-xs text-destructive">{error}</p> : null}
    </div>
  );
}
