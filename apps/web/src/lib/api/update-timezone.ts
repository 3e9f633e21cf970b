import type { UserUpdateAnswer } from '@sendwell/contracts';
import { api } from '@/lib/api-client';

/** PUT /api/user/timezone {timezone}: answers the updated user. */
export function updateTimezone(timezone: string): Promise<UserUpdateAnswer> {
  return api.put<UserUpdateAnswer>('/api/user/timezone', { timezone });
}
