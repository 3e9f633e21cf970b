import { Menu } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';

/**
 * The signed-in shell's frame (AppShell) and its stand-in while the session is being restored. The
 * stand-in is also what the build writes into the HTML of the signed-in screens (src/prerender.tsx),
 * so a phone paints the frame and the page title before the app's code has arrived; both draw the
 * frame from these classes so the real shell replaces it without anything moving.
 */
export const shellClasses = {
  frame: 'flex min-h-screen bg-muted/40',
  sidebar: 'sticky top-0 hidden h-screen shrink-0 flex-col border-r bg-card transition-[width] md:flex',
  column: 'flex min-w-0 flex-1 flex-col',
  header: 'sticky top-0 z-30 flex h-16 items-center gap-2 border-b bg-card/95 px-3 backdrop-blur sm:px-6',
  title: 'min-w-0 flex-1 truncate text-lg font-semibold',
  main: 'flex-1 p-4 sm:p-6',
} as const;

/** The sidebar's width; the stand-in (which cannot read the stored choice) is drawn expanded. */
export const sidebarWidth = (collapsed: boolean) => (collapsed ? 'w-16' : 'w-64');

/**
 * The frame with the page's title and nothing that depends on the user: an empty sidebar, the menu
 * button, and a spinner where the screen will be.
 */
export function ShellSkeleton({ title }: { title: string }) {
  return (
    <div className={shellClasses.frame}>
      <title>{`${title} · Sendwell`}</title>
      <aside aria-label="Sidebar" className={cn(shellClasses.sidebar, sidebarWidth(false))} />
      <div className={shellClasses.column}>
        <header className={shellClasses.header}>
          <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open navigation">
            <Menu className="h-5 w-5" aria-hidden="true" />
          </Button>
          <h1 className={shellClasses.title}>{title}</h1>
        </header>
        <main id="main" className={shellClasses.main}>
          <div className="flex justify-center py-12 text-primary">
            <Spinner label="Restoring your session" />
          </div>
        </main>
      </div>
    </div>
  );
}
