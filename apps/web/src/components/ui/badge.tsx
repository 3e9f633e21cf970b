import type { BadgeVariant } from '@/lib/display';
import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/utils';

/** The badge styles the display mappings name (part 1 §4), and the grey one (part 2 §9). */
const variants: Record<BadgeVariant, string> = {
  default: 'border-transparent bg-primary text-primary-foreground',
  secondary: 'border-transparent bg-secondary text-secondary-foreground',
  outline: 'text-foreground',
  destructive: 'border-transparent bg-destructive text-destructive-foreground',
  muted: 'border-transparent bg-muted text-muted-foreground',
};

export function Badge({ className, variant = 'default', ...props }: HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant }) {
  return (
    <span
      data-variant={variant}
      className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold capitalize', variants[variant], className)}
      {...props}
    />
  );
}
