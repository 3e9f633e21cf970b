import type { UserUpdateAnswer } from '@sendwell/contracts';
import { api } from '@/lib/api-client';

/** POST /api/user/mark-preferences-set: after the first-time popup's Save, and on Skip (part 1 §4). */
export function markPreferencesSet(): Promise<UserUpdateAnswer> {
  return api.post<UserUpdateAnswer>('/api/user/mark-preferences-set');
}
