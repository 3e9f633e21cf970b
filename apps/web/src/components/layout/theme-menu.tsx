import type { ReactNode } from 'react';
import { DropdownMenu, DropdownMenuContent, DropdownMenuRadioGroup, DropdownMenuRadioItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import type { Theme } from '@/lib/theme/theme';

/** The theme menu itself, loaded on demand by ThemeToggle. */
export function ThemeMenu({ trigger, labels, theme, setTheme, defaultOpen }: { trigger: ReactNode; labels: Record<Theme, string>; theme: Theme; setTheme: (t: Theme) => void; defaultOpen: boolean }) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuRadioGroup value={theme} onValueChange={(v) => setTheme(v as Theme)}>
          {(Object.keys(labels) as Theme[]).map((t) => (
            <DropdownMenuRadioItem key={t} value={t}>
              {labels[t]}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
