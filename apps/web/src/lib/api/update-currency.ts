import type { UserUpdateAnswer } from '@sendwell/contracts';
import { api } from '@/lib/api-client';

/** PUT /api/user/currency {currency}: 403 with `currencyLocked: true` once a payment locked it. */
export function updateCurrency(currency: string): Promise<UserUpdateAnswer> {
  return api.put<UserUpdateAnswer>('/api/user/currency', { currency });
}
