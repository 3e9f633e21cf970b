import type { ApiAnswer } from '@sendwell/contracts';
import { callApi } from './call-api';

/** PUT /api/user/timezone {timezone}: answers the updated user. */
export function updateTimezone(timezone: string): Promise<ApiAnswer<'PUT /api/user/timezone'>> {
  return callApi('PUT /api/user/timezone', { body: { timezone } });
}
