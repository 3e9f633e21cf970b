import type { UserUpdateAnswer } from '@sendwell/contracts';
import { api } from '@/lib/api-client';

/** PUT /api/user/date-format {dateFormat}: answers the updated user. */
export function updateDateFormat(dateFormat: string): Promise<UserUpdateAnswer> {
  return api.put<UserUpdateAnswer>('/api/user/date-format', { dateFormat });
}
