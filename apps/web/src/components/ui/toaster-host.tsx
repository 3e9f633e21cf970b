import { lazy, Suspense } from 'react';
import { useToasterNeeded } from './toast-store';

const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

/**
 * Mounts the Radix toaster once the first toast is requested, so pages that never toast (the landing
 * page) do not load it. Toasts queued before it loads are shown when it mounts.
 */
export function ToasterHost() {
  const needed = useToasterNeeded();
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
