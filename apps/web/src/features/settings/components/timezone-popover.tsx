import * as Popover from '@radix-ui/react-popover';
import { timezoneOptions } from '@sendwell/contracts';
import { Check, Search } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** The time-zone list itself, loaded on demand by TimezonePicker. */
export function TimezonePopover({ trigger, value, onChange, defaultOpen }: { trigger: ReactNode; value: string; onChange: (value: string) => void; defaultOpen: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  const [query, setQuery] = useState('');
  const listId = useId();
  const q = query.trim().toLowerCase();
  const shown = q ? timezoneOptions.filter((o) => o.label.toLowerCase().includes(q) || o.value.toLowerCase().includes(q)) : timezoneOptions;
  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setQuery('');
      }}
    >
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="start" sideOffset={4} className="z-50 w-[var(--radix-popover-trigger-width)] min-w-[16rem] rounded-md border bg-card p-2 text-card-foreground shadow-md">
          <div className="relative mb-2">
            <Search className="pointer-events-none absolute left-2.5 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
            <input
              autoFocus
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              aria-label="Search timezones"
              aria-controls={listId}
              placeholder="Search timezones"
              className="h-9 w-full rounded-md border border-input bg-background pl-8 pr-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            />
          </div>
          <ul id={listId} className="max-h-64 overflow-y-auto" aria-label="Timezones">
            {shown.length === 0 ? <li className="px-2 py-3 text-center text-sm text-muted-foreground">No matching timezone</li> : null}
            {shown.map((o) => (
              <li key={o.value}>
                <button
                  type="button"
                  aria-pressed={o.value === value}
                  onClick={() => {
                    onChange(o.value);
                    setOpen(false);
                    setQuery('');
                  }}
                  className={cn('flex w-full items-center gap-2 rounded-sm px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none', o.value === value && 'font-medium')}
                >
                  <Check className={cn('h-4 w-4 shrink-0', o.value === value ? 'opacity-100' : 'opacity-0')} aria-hidden="true" />
                  {o.label}
                </button>
              </li>
            ))}
          </ul>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
