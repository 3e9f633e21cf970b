import { api } from '@/lib/api-client';

/** POST /api/auth/logout; its answer is not used (part 1 §7). */
export function logout(): Promise<unknown> {
  return api.post('/api/auth/logout');
}
