import type { PaymentMethodAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const URL = '/api/payment-method';

/** GET /api/payment-method (paid plans): brand, last4, expMonth, expYear, or null. */
export function getPaymentMethod(): Promise<PaymentMethodAnswer> {
  return api.get<PaymentMethodAnswer>(URL);
}

export function paymentMethodQueryOptions() {
  return queryOptions({ queryKey: [URL], queryFn: getPaymentMethod });
}

export function usePaymentMethod({ enabled }: { enabled: boolean }) {
  return useQuery({ ...paymentMethodQueryOptions(), enabled });
}
