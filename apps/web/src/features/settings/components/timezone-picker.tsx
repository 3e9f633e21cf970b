import { timezoneOptions } from '@sendwell/contracts';
import { ChevronsUpDown } from 'lucide-react';
import { useId } from 'react';
import { OnDemand } from '@/components/ui/on-demand';

const loadPopover = () => import('./timezone-popover');

/**
 * A searchable list of the contracts' time zones (part 1 §2 Settings): type to filter by label or IANA
 * name. The list and its popover load when the user reaches for the button.
 */
export function TimezonePicker({ value, onChange, labelledBy }: { value: string; onChange: (value: string) => void; labelledBy: string }) {
  const valueId = useId();
  const current = timezoneOptions.find((o) => o.value === value);
  const button = (props: object) => (
    <button
      type="button"
      aria-labelledby={`${labelledBy} ${valueId}`}
      className="flex h-10 w-full items-center justify-between gap-2 rounded-md border border-input bg-background px-3 text-left text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="timezone-trigger"
      {...props}
    >
      <span id={valueId} className="truncate">
        {current?.label ?? value}
      </span>
      <ChevronsUpDown className="h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
    </button>
  );
  return (
    <OnDemand
      load={loadPopover}
      trigger={(props) => button(props)}
      render={({ TimezonePopover }, start) => <TimezonePopover trigger={button({ autoFocus: start.focus })} value={value} onChange={onChange} defaultOpen={start.open} />}
    />
  );
}
