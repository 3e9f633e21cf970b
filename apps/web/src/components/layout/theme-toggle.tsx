import { Monitor, Moon, Sun } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { OnDemand } from '@/components/ui/on-demand';
import { useTheme } from '@/lib/theme/theme-provider';
import type { Theme } from '@/lib/theme/theme';

const labels: Record<Theme, string> = { light: 'Light', dark: 'Dark', system: 'System' };
const loadMenu = () => import('./theme-menu');

/** Light, Dark, System; kept locally; default System (part 1 §2). The menu's code loads on demand. */
export function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  const Icon = theme === 'light' ? Sun : theme === 'dark' ? Moon : Monitor;
  const button = (props: object) => (
    <Button variant="ghost" size="icon" aria-label={`Theme: ${labels[theme]}`} {...props}>
      <Icon className="h-5 w-5" aria-hidden="true" />
    </Button>
  );
  return (
    <OnDemand
      load={loadMenu}
      trigger={(props) => button(props)}
      render={({ ThemeMenu }, start) => <ThemeMenu trigger={button({ autoFocus: start.focus })} labels={labels} theme={theme} setTheme={setTheme} defaultOpen={start.open} />}
    />
  );
}
