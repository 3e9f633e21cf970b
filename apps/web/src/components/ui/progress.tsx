import { cn } from '@/lib/utils';

/** A horizontal bar for a value out of `max`; the label names it for screen readers. */
export function Progress({ value, max = 100, label, className, barClassName }: { value: number; max?: number; label: string; className?: string; barClassName?: string }) {
  const percent = max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.round(value * 10) / 10}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-muted', className)}
    >
      <div className={cn('h-full rounded-full bg-primary transition-all', barClassName)} style={{ width: `${percent}%` }} />
    </div>
  );
}
