import { Navigate, Outlet, useLocation } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth/auth-provider';

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
 */
export function RequireAuthRoute() {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') {
    return (
      <div className="flex min-h-screen items-center justify-center text-primary">
        <Spinner label="Restoring your session" />
      </div>
    );
  }
  if (status === 'unauthenticated') return <Navigate to={paths.login} replace state={{ from: location.pathname }} />;
  return <Outlet />;
}
