import type { NotificationPreferences } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { NotificationPreferencesRepository } from './notification-preferences.repository.js';

/** Settings → Notifications: what each user wants delivered (the notify fan-out reads the same rows). */
export class NotificationPreferencesService {
  private readonly repo: NotificationPreferencesRepository;

  constructor(
    db: Database,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.repo = new NotificationPreferencesRepository(db);
  }

  get(userId: number): Promise<NotificationPreferences> {
    return this.repo.get(userId);
  }

  async save(userId: number, preferences: NotificationPreferences): Promise<NotificationPreferences> {
    await this.repo.save(userId, preferences, this.clock());
    return this.repo.get(userId);
  }
}
