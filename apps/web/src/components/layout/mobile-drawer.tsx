import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { SheetContent } from '@/components/ui/dialog';

/** The navigation drawer under 768 px, loaded the first time it opens (AppShell). */
export default function MobileDrawer({ open, onOpenChange, children }: { open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode }) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <SheetContent aria-describedby={undefined}>
        <DialogPrimitive.Title className="sr-only">Navigation</DialogPrimitive.Title>
        {children}
      </SheetContent>
    </DialogPrimitive.Root>
  );
}
