import type { ApiAnswer } from '@sendwell/contracts';
import { callApi } from './call-api';

/** POST /api/user/mark-preferences-set: after the first-time popup's Save, and on Skip (part 1 §4). */
export function markPreferencesSet(): Promise<ApiAnswer<'POST /api/user/mark-preferences-set'>> {
  return callApi('POST /api/user/mark-preferences-set');
}
