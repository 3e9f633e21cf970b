import type { ApiAnswer, ApiBody } from '@sendwell/contracts';
import { callApi } from './call-api';

/** PUT /api/user/date-format {dateFormat}: answers the updated user. */
export function updateDateFormat(dateFormat: string): Promise<ApiAnswer<'PUT /api/user/date-format'>> {
  // The screens pass the select's string; the service refuses a value outside its list (400).
  return callApi('PUT /api/user/date-format', { body: { dateFormat } as ApiBody<'PUT /api/user/date-format'> });
}
