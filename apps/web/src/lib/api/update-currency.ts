import type { ApiAnswer, ApiBody } from '@sendwell/contracts';
import { callApi } from './call-api';

/** PUT /api/user/currency {currency}: 403 with `currencyLocked: true` once a payment locked it. */
export function updateCurrency(currency: string): Promise<ApiAnswer<'PUT /api/user/currency'>> {
  // The screens pass the select's string; the service refuses a value outside its list (400).
  return callApi('PUT /api/user/currency', { body: { currency } as ApiBody<'PUT /api/user/currency'> });
}
