import { useDeferredValue } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ShellSkeleton } from '@/components/layout/shell-skeleton';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth/auth-provider';
import { usePageTitle } from '../route-table-context';

/**
 * `/`, `/login` and `/register`: an authenticated visitor goes to /dashboard, replacing history
 * (part 2 §2.1, §2.8). While the session is being restored the page renders, so a visitor sees it at once.
 */
export function PublicOnlyRoute() {
  const { status } = useAuth();
  if (status === 'authenticated') return <Navigate to={paths.dashboard} replace />;
  return <Outlet />;
}

/**
 * Signed-in screens. An unauthenticated visitor goes to /login: the spec's guard also names
 * /subscription-comparison, but every signed-in screen says "redirected to /login" (part 1 §6), and a
 * sign-in form is what someone following a bookmark to their dashboard needs.
 *
 * While the session is being restored the shell's frame stands in, with the page's title: the HTML
 * of the signed-in screens holds that same frame (src/prerender.tsx), and the app takes it over.
 */
export function RequireAuthRoute() {
  const current = useAuth().status;
  // The restored session's shell and screen replace the frame in a deferred render, which yields to
  // the browser every few milliseconds instead of taking one task of the whole screen (~200 ms on a
  // phone). Only that switch waits: any other change of the session (a sign-out) applies at once.
  const deferred = useDeferredValue(current);
  const status = current === 'authenticated' && deferred === 'loading' ? 'loading' : current;
  const location = useLocation();
  const title = usePageTitle();
  if (status === 'loading') return <ShellSkeleton title={title} />;
  if (status === 'unauthenticated') return <Navigate to={paths.login} replace state={{ from: location.pathname }} />;
  return <Outlet />;
}
