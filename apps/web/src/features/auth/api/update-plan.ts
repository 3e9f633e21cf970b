import type { PaidPlan } from '@sendwell/contracts';
import { api } from '@/lib/api-client';

/**
 * POST /api/subscription/update {plan}, requested right after a registration that carried a plan.
 * Its failure is ignored (part 1 §2), so it is a plain call rather than a tracked mutation.
 */
export async function requestPlanAfterRegistration(plan: PaidPlan): Promise<void> {
  try {
    await api.post('/api/subscription/update', { plan });
  } catch {
    // Ignored by design: the plan screen that follows takes over.
  }
}
