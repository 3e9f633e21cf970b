import { alertTypeSchema, defaultNotificationPreferences, type NotificationPreferences } from '@sendwell/contracts';
import type { Executor } from '@sendwell/db';

/** One row per user who saved preferences; everyone else has the defaults. */
export class NotificationPreferencesRepository {
  constructor(private readonly db: Executor) {}

  async get(userId: number): Promise<NotificationPreferences> {
    const row = await this.db
      .selectFrom('notificationPreferences')
      .select(['emailAlerts', 'digest', 'mutedTypes', 'reportEmails'])
      .where('userId', '=', userId)
      .executeTakeFirst();
    if (!row) return { ...defaultNotificationPreferences };
    // A type name the contracts no longer know is dropped rather than failing the read.
    return { ...row, mutedTypes: row.mutedTypes.filter((t) => alertTypeSchema.safeParse(t).success) as NotificationPreferences['mutedTypes'] };
  }

  async save(userId: number, preferences: NotificationPreferences, now: Date): Promise<void> {
    const values = { ...preferences, mutedTypes: [...preferences.mutedTypes], updatedAt: now };
    await this.db
      .insertInto('notificationPreferences')
      .values({ userId, ...values })
      .onConflict((oc) => oc.column('userId').doUpdateSet(values))
      .execute();
  }
}
