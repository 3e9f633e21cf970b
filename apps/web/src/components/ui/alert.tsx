import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** An inline message box; destructive for failures. */
export function Alert({ title, children, variant = 'default', className }: { title?: string; children?: ReactNode; variant?: 'default' | 'destructive' | 'success'; className?: string }) {
  return (
    <div
      role={variant === 'destructive' ? 'alert' : 'status'}
      className={cn(
        'rounded-md border p-3 text-sm',
        variant === 'destructive' && 'border-destructive/50 bg-destructive/10 text-destructive dark:text-red-300',
        variant === 'success' && 'border-green-600/40 bg-green-50 text-green-900 dark:bg-green-950 dark:text-green-100',
        className,
      )}
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? 'mt-1' : undefined}>{children}</div> : null}
    </div>
  );
}
