import type * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { createContext, useContext, type ComponentPropsWithoutRef, type HTMLAttributes } from 'react';
import { useOnDemand } from '@/components/ui/on-demand';
import { cn } from '@/lib/utils';

/**
 * Radix's dialog, loaded the first time a dialog opens: every dialog here is controlled and opened by
 * a press (or by data, as the preferences popup), and the dialog, focus-trap and scroll-lock code was
 * 16 KB gzip of each screen's first load. Until then a closed `Dialog` renders nothing, which is what
 * Radix renders for a closed dialog without a trigger anyway; the parts below render inside an open
 * `Dialog`, so they always find the loaded module.
 */
type Primitive = typeof DialogPrimitive;
const loadPrimitive = () => import('@radix-ui/react-dialog');
const PrimitiveContext = createContext<Primitive | null>(null);

function usePrimitive(): Primitive {
  const primitive = useContext(PrimitiveContext);
  if (!primitive) throw new Error('Dialog parts render inside <Dialog>');
  return primitive;
}

export function Dialog({ open, ...props }: ComponentPropsWithoutRef<Primitive['Root']> & { open: boolean }) {
  const P = useOnDemand(loadPrimitive, open);
  if (!P) return null;
  return (
    <PrimitiveContext.Provider value={P}>
      <P.Root open={open} {...props} />
    </PrimitiveContext.Provider>
  );
}

export function DialogClose(props: ComponentPropsWithoutRef<Primitive['Close']>) {
  const P = usePrimitive();
  return <P.Close {...props} />;
}

export function DialogContent({ className, children, ...props }: ComponentPropsWithoutRef<Primitive['Content']>) {
  const DialogPrimitive = usePrimitive();
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/60" />
      <DialogPrimitive.Content
        className={cn(
          'fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-card p-6 text-card-foreground shadow-lg',
          className,
        )}
        {...props}
      >
        {children}
        <DialogPrimitive.Close aria-label="Close" className="absolute right-4 top-4 rounded-sm opacity-70 hover:opacity-100">
          <X className="h-4 w-4" aria-hidden="true" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** A panel sliding in from the left: the mobile navigation drawer (under 768 px). */
export function SheetContent({ className, children, ...props }: ComponentPropsWithoutRef<Primitive['Content']>) {
  const DialogPrimitive = usePrimitive();
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/60" />
      <DialogPrimitive.Content
        className={cn('fixed inset-y-0 left-0 z-50 flex h-full w-72 max-w-[85vw] flex-col border-r bg-card shadow-lg', className)}
        {...props}
      >
        {children}
        <DialogPrimitive.Close aria-label="Close navigation" className="absolute right-3 top-3 rounded-sm p-1 opacity-70 hover:opacity-100">
          <X className="h-5 w-5" aria-hidden="true" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('flex flex-col gap-1.5', className)} {...props} />;
}
export function DialogFooter({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />;
}
export function DialogTitle({ className, ...props }: ComponentPropsWithoutRef<Primitive['Title']>) {
  const DialogPrimitive = usePrimitive();
  return <DialogPrimitive.Title className={cn('text-lg font-semibold', className)} {...props} />;
}
export function DialogDescription({ className, ...props }: ComponentPropsWithoutRef<Primitive['Description']>) {
  const DialogPrimitive = usePrimitive();
  return <DialogPrimitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />;
}
