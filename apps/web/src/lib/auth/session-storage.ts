import type { User } from '@sendwell/contracts';
import { storageKeys } from '@/config/storage-keys';

/** The locally kept login (part 1 §3): `auth_token` and `auth_user`. */
export function readStoredToken(): string | null {
  return localStorage.getItem(storageKeys.token);
}

export function readStoredUser(): User | null {
  const raw = localStorage.getItem(storageKeys.user);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as User;
  } catch {
    localStorage.removeItem(storageKeys.user);
    return null;
  }
}

export function storeSession(token: string, user: User): void {
  localStorage.setItem(storageKeys.token, token);
  storeUser(user);
}

export function storeUser(user: User): void {
  localStorage.setItem(storageKeys.user, JSON.stringify(user));
}

export function clearStoredUser(): void {
  localStorage.removeItem(storageKeys.user);
}

export function clearSession(): void {
  localStorage.removeItem(storageKeys.token);
  localStorage.removeItem(storageKeys.user);
}
