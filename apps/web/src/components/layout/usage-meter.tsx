import { usageTone } from '@/lib/display';
import { cn } from '@/lib/utils';

const toneClass = { green: 'bg-green-600', amber: 'bg-amber-500', red: 'bg-red-600' } as const;

/** A labelled bar: green, amber above 70 percent, red above 90 percent (part 1 §2). */
export function UsageMeter({ label, text, used, limit }: { label: string; text: string; used: number; limit: number }) {
  const tone = usageTone(used, limit);
  const percent = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : used > 0 ? 100 : 0;
  return (
    <div className="space-y-1" data-tone={tone}>
      <div className="flex justify-between text-xs">
        <span className="text-muted-foreground">{label}</span>
        <span className="font-medium">{text}</span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={used}
      >
        <div className={cn('h-full rounded-full', toneClass[tone])} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
