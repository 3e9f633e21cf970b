import { CURRENCY_LOCKED_MESSAGE, NOT_AUTHENTICATED, type Currency, type DateFormat } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { forbidden, unauthorized } from '@sendwell/server-kit';
import { UserRepository, type PreferencesPatch, type UserRow } from '../repositories/user.repository.js';

/** A user's own preferences. Every call is scoped to the caller's id; no call names another user. */
export class UserService {
  private readonly users: UserRepository;

  constructor(db: Database) {
    this.users = new UserRepository(db);
  }

  /** The caller's own row, for `GET /api/user`: a request carries only the few columns other services use. */
  async get(userId: number): Promise<UserRow> {
    return orGone(await this.users.findById(userId));
  }

  updateTimezone(userId: number, timezone: string): Promise<UserRow> {
    return this.update(userId, { timezone });
  }

  updateDateFormat(userId: number, dateFormat: DateFormat): Promise<UserRow> {
    return this.update(userId, { dateFormat });
  }

  markPreferencesSet(userId: number): Promise<UserRow> {
    return this.update(userId, { preferencesSet: true });
  }

  dismissUpgradeNotification(userId: number): Promise<UserRow> {
    return this.update(userId, { showUpgradeNotification: false });
  }

  /** Prices follow the currency of the first payment, so it is locked from then on. */
  async updateCurrency(userId: number, currency: Currency): Promise<UserRow> {
    const updated = await this.users.updateCurrencyIfUnlocked(userId, currency);
    if (updated) return updated;
    orGone(await this.users.findById(userId));
    throw forbidden(CURRENCY_LOCKED_MESSAGE, { currencyLocked: true });
  }

  private async update(userId: number, patch: PreferencesPatch): Promise<UserRow> {
    return orGone(await this.users.updatePreferences(userId, patch));
  }
}

/** The user was deleted while the request ran: their session is worth nothing now. */
function orGone(row: UserRow | undefined): UserRow {
  if (!row) throw unauthorized(NOT_AUTHENTICATED);
  return row;
}
