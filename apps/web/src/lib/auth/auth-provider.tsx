import type { User } from '@sendwell/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '@/components/ui/toast-store';
import { paths } from '@/config/paths';
import { isClientError } from '@/lib/api-client';
import { getUser, userQueryOptions } from './api/get-user';
import { logout as logoutCall } from './api/logout';
import { clearSession, clearStoredUser, readStoredToken, readStoredUser, storeSession, storeUser } from './session-storage';

/** Token verification waits this long after load (part 1 §9). */
export const SESSION_RESTORE_DELAY_MS = 100;

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface AuthContextValue {
  status: AuthStatus;
  user: User | null;
  /** Stores the token and user from a login, registration or verification answer. */
  signIn: (token: string, user: User) => void;
  /** Replaces the cached user (after a call that answers the updated user). */
  updateUser: (user: User) => void;
  /** Clears the local login even when the server call fails (part 1 §4). */
  signOut: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/**
 * The session of part 1 §4: 100 ms after load a stored token and user restore the login and the
 * user is verified with GET /api/user; a token without a user fetches and stores it; a failed
 * verification ends in 'Session expired' and /login. On window focus and on route change the user is
 * re-fetched, and when the plan changed the cached user and plan-dependent reads are dropped.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [status, setStatus] = useState<AuthStatus>('loading');
  const [user, setUser] = useState<User | null>(null);
  const userRef = useRef<User | null>(null);
  userRef.current = user;

  const expire = useCallback(() => {
    clearSession();
    queryClient.clear();
    setUser(null);
    setStatus('unauthenticated');
    toast({ title: 'Session expired', description: 'Please log in again.', variant: 'destructive' });
    navigate(paths.login, { replace: true });
  }, [navigate, queryClient]);

  useEffect(() => {
    let cancelled = false;
    const timer = setTimeout(() => {
      const token = readStoredToken();
      const stored = readStoredUser();
      if (!token) {
        setStatus('unauthenticated');
        return;
      }
      if (stored) {
        setUser(stored);
        setStatus('authenticated');
      }
      getUser()
        .then((fresh) => {
          if (cancelled) return;
          storeUser(fresh);
          queryClient.setQueryData(userQueryOptions().queryKey, fresh);
          setUser(fresh);
          setStatus('authenticated');
        })
        .catch((error: unknown) => {
          if (cancelled) return;
          // A server or network fault keeps a stored login; a refused token (4xx) or nothing to fall back on ends it.
          if (stored && !isClientError(error)) return;
          expire();
        });
    }, SESSION_RESTORE_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // Runs once per load; `expire` is stable for the life of the router.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /**
   * Re-reads the user and applies it; when the plan changed, the stored user and every plan-dependent
   * read are dropped. Reads asked for while one is in flight share it (a redirect chain makes one call),
   * and an unchanged answer keeps the same object (the query's structural sharing), so nothing re-renders.
   */
  const reread = useCallback(() => {
    queryClient
      .fetchQuery(userQueryOptions())
      .then((fresh) => {
        const previous = userRef.current;
        if (!previous || fresh === previous) return;
        if (previous.planType !== fresh.planType) {
          clearStoredUser();
          void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== userQueryOptions().queryKey[0] });
        }
        storeUser(fresh);
        setUser(fresh);
      })
      .catch(() => undefined);
  }, [queryClient]);

  useEffect(() => {
    if (status !== 'authenticated') return;
    const onFocus = () => reread();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [status, reread]);

  // On route change too (part 1 §7 GET /api/user): a plan changed elsewhere (another tab, a webhook)
  // reaches the gates of the next screen. Only a new path reads: not a search or hash change, not a
  // re-render, not the first path (the restore reads that one).
  const { pathname } = useLocation();
  const readPath = useRef(pathname);
  useEffect(() => {
    if (readPath.current === pathname) return;
    readPath.current = pathname;
    if (status === 'authenticated') reread();
  }, [pathname, status, reread]);

  const signIn = useCallback(
    (token: string, next: User) => {
      storeSession(token, next);
      queryClient.setQueryData(userQueryOptions().queryKey, next);
      setUser(next);
      setStatus('authenticated');
    },
    [queryClient],
  );

  const updateUser = useCallback(
    (next: User) => {
      storeUser(next);
      queryClient.setQueryData(userQueryOptions().queryKey, next);
      setUser(next);
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    try {
      await logoutCall();
    } catch {
      // The local login is cleared whatever the server says.
    } finally {
      clearSession();
      queryClient.clear();
      setUser(null);
      setStatus('unauthenticated');
    }
  }, [queryClient]);

  const value = useMemo(() => ({ status, user, signIn, updateUser, signOut }), [status, user, signIn, updateUser, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth needs an AuthProvider');
  return value;
}

/** For screens under the signed-in guard, where the user is known to exist. */
export function useUser(): User {
  const { user } = useAuth();
  if (!user) throw new Error('useUser is for signed-in screens only');
  return user;
}
