import { Menu, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { storageKeys } from '@/config/storage-keys';
import { cn } from '@/lib/utils';

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
    <div className="flex min-h-screen bg-muted/40">
      <aside
        aria-label="Sidebar"
        className={cn('sticky top-0 hidden h-screen shrink-0 flex-col border-r bg-card transition-[width] md:flex', collapsed ? 'w-16' : 'w-64')}
      >
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
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b bg-card/95 px-3 backdrop-blur sm:px-6">
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
          <h1 className="min-w-0 flex-1 truncate text-lg font-semibold">{title}</h1>
          <div className="flex items-center gap-1">{actions}</div>
        </header>
        <main id="main" className="flex-1 p-4 sm:p-6">
          {children}
        </main>
      </div>
    </div>
  );
}
