import type { ReactNode } from 'react';
import { Dialog, DialogTitle, SheetContent } from '@/components/ui/dialog';

/** The navigation drawer under 768 px, loaded the first time it opens (AppShell). */
export default function MobileDrawer({ open, onOpenChange, children }: { open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <SheetContent aria-describedby={undefined}>
        <DialogTitle className="sr-only">Navigation</DialogTitle>
        {children}
      </SheetContent>
    </Dialog>
  );
}
