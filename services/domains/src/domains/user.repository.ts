import type { Executor } from '@sendwell/db';

/** The few user columns this service reads (auth owns the table). */
export class UserRepository {
  constructor(private readonly db: Executor) {}

  /**
   * The owner's plan, with the user row locked for the rest of the transaction: adds of one user are
   * serialised, so two racing adds cannot both pass the plan's domain limit.
   */
  lockPlan(userId: number): Promise<{ id: number; planType: string } | undefined> {
    return this.db.selectFrom('users').select(['id', 'planType']).where('id', '=', userId).forUpdate().executeTakeFirst();
  }
}
