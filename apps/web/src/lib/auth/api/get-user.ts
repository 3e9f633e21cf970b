import type { User } from '@sendwell/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/user: the signed-in user with planType (part 1 §7). */
export const USER_URL = '/api/user';

export function getUser(): Promise<User> {
  return api.get<User>(USER_URL);
}

export function userQueryOptions() {
  return queryOptions({ queryKey: [USER_URL], queryFn: getUser, staleTime: 0 });
}
