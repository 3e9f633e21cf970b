import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/utils';

/**
 * A wide table's box: it scrolls sideways on a phone instead of widening the page. Focusable and
 * named, so a keyboard can scroll it too (axe: scrollable-region-focusable). Positioned, so what is
 * absolutely placed inside (screen-reader-only text) is clipped with the rest and cannot widen the page.
 */
export function ScrollX({ label, className, ...props }: HTMLAttributes<HTMLDivElement> & { label: string }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={cn('relative overflow-x-auto rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
      {...props}
    />
  );
}
