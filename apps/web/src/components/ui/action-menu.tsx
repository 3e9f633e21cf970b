import type { ReactElement } from 'react';
import { OnDemand } from '@/components/ui/on-demand';
import type { ActionMenuItem } from './action-menu-content';

export type { ActionMenuItem };

const loadMenu = () => import('./action-menu-content');

/**
 * A button opening a menu of actions (Download as PDF, HTML…), whose menu code (Radix's menu and its
 * positioning, 18 KB gzip) loads when the user reaches for the button, like the shell's menus.
 * `button` draws the trigger from the props it is given.
 */
export function ActionMenu({ button, items }: { button: (props: object) => ReactElement; items: readonly ActionMenuItem[] }) {
  return (
    <OnDemand
      load={loadMenu}
      trigger={(props) => button(props)}
      render={({ ActionMenuContent }, start) => <ActionMenuContent trigger={button({ autoFocus: start.focus })} items={items} defaultOpen={start.open} />}
    />
  );
}
