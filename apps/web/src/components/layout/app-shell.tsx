import { Menu, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { storageKeys } from '@/config/storage-keys';
import { cn } from '@/lib/utils';
import { shellClasses, sidebarWidth } from './shell-skeleton';

// The drawer's dialog code loads the first time it opens: a desktop visit never needs it.
const MobileDrawer = lazy(() => import('./mobile-drawer'));

export interface SidebarRenderProps {
  collapsed: boolean;
}

/**
 * The frame of every signed-in screen (part 1 §2): a collapsible sidebar (w-64, w-16 collapsed) on
 * desktop, a left drawer under 768 px, and a top bar with the page title and the actions slot.
 */
export function AppShell({
  title,
  sidebar,
  actions,
  children,
}: {
  title: string;
  sidebar: (props: SidebarRenderProps) => ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(storageKeys.sidebarCollapsed) === 'true');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerUsed, setDrawerUsed] = useState(false);
  const location = useLocation();

  useEffect(() => setDrawerOpen(false), [location.pathname]);

  const toggle = () => {
    setCollapsed((c) => {
      localStorage.setItem(storageKeys.sidebarCollapsed, String(!c));
      return !c;
    });
  };

  return (
    <div className={shellClasses.frame}>
      <aside aria-label="Sidebar" className={cn(shellClasses.sidebar, sidebarWidth(collapsed))}>
        {sidebar({ collapsed })}
        <div className="border-t p-2">
          <Button variant="ghost" size="sm" className="w-full" onClick={toggle} aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}>
            {collapsed ? <PanelLeftOpen className="h-4 w-4" aria-hidden="true" /> : <PanelLeftClose className="h-4 w-4" aria-hidden="true" />}
            {collapsed ? null : <span>Collapse</span>}
          </Button>
        </div>
      </aside>
      {drawerUsed ? (
        <Suspense fallback={null}>
          <MobileDrawer open={drawerOpen} onOpenChange={setDrawerOpen}>
            {sidebar({ collapsed: false })}
          </MobileDrawer>
        </Suspense>
      ) : null}
      <div className={shellClasses.column}>
        <header className={shellClasses.header}>
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label="Open navigation"
            onPointerEnter={() => void import('./mobile-drawer')}
            onClick={() => {
              setDrawerUsed(true);
              setDrawerOpen(true);
            }}
          >
            <Menu className="h-5 w-5" aria-hidden="true" />
          </Button>
          <h1 className={shellClasses.title}>{title}</h1>
          <div className="flex items-center gap-1">{actions}</div>
        </header>
        <main id="main" className={shellClasses.main}>
          {children}
        </main>
      </div>
    </div>
  );
}
