import type { ComponentProps } from 'react';
import { useHydrated } from '@/lib/hooks/use-hydrated';
import { cn } from '@/lib/utils';

/**
 * The controls of a form on a prerendered page (src/prerender.tsx): disabled until the app has
 * hydrated the page (see useHydrated for why), but not drawn as disabled, since that lasts a moment
 * and greying them out would only make the form flicker (styles.css, `data-awaiting-app`).
 */
export function PrerenderedFieldset({ className, ...props }: ComponentProps<'fieldset'>) {
  const hydrated = useHydrated();
  return <fieldset disabled={!hydrated} data-awaiting-app={hydrated ? undefined : ''} className={cn('min-w-0', className)} {...props} />;
}
