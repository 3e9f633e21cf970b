import { sql, type Insertable, type Selectable, type Updateable, type Users, type Executor } from '@sendwell/db';

/** Every column a user DTO needs: never the password hash nor the verification token. */
export const userColumns = [
  'id',
  'username',
  'email',
  'firstName',
  'lastName',
  'planType',
  'currency',
  'currencyLocked',
  'preferencesSet',
  'timezone',
  'dateFormat',
  'storageUsage',
  'storageLimit',
  'oneTimeCredits',
  'signupSource',
  'quickCheckDomain',
  'showUpgradeNotification',
  'emailVerified',
  'stripeCustomerId',
  'stripeSubscriptionId',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof Users>;

export type UserRow = Pick<Selectable<Users>, (typeof userColumns)[number]>;
export type UserWithSecrets = UserRow & Pick<Selectable<Users>, 'passwordHash' | 'emailVerificationExpires'>;
type NewUser = Pick<
  Insertable<Users>,
  | 'username'
  | 'email'
  | 'passwordHash'
  | 'firstName'
  | 'lastName'
  | 'signupSource'
  | 'quickCheckDomain'
  | 'showUpgradeNotification'
  | 'emailVerificationToken'
  | 'emailVerificationExpires'
>;
/** The preferences a user may change about themselves. */
export type PreferencesPatch = Pick<Updateable<Users>, 'timezone' | 'dateFormat' | 'preferencesSet' | 'showUpgradeNotification'>;

/** What Settings → Account lets a user change about themselves (the email stays). */
export type ProfilePatch = Pick<Updateable<Users>, 'firstName' | 'lastName' | 'username'>;

/** Names of the unique indexes on users, so a lost race on insert still answers the right 409. */
export const USERS_EMAIL_UNIQUE = 'users_email_lower_key';
export const USERS_USERNAME_UNIQUE = 'users_username_lower_key';

export class UserRepository {
  constructor(private readonly db: Executor) {}

  /** Emails are stored lower-cased; `lower(email)` matches the unique index. */
  findByEmailWithSecrets(email: string): Promise<UserWithSecrets | undefined> {
    return this.db
      .selectFrom('users')
      .select([...userColumns, 'passwordHash', 'emailVerificationExpires'])
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }

  async findPasswordHash(id: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('users').select('passwordHash').where('id', '=', id).executeTakeFirst();
    return row?.passwordHash;
  }

  /**
   * Deletes the user; every table they own cascades from `users.id`, and the `auth_epoch` trigger
   * makes every process drop its cached sessions. Only while the hash is still the one checked, so a
   * password changed in between keeps the account.
   */
  async deleteIfPasswordHash(id: number, passwordHash: string): Promise<boolean> {
    const result = await this.db.deleteFrom('users').where('id', '=', id).where('passwordHash', '=', passwordHash).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();
  }

  /** Which of the two unique identities are already taken, in any letter case. */
  async findTaken(email: string, username: string): Promise<{ email: boolean; username: boolean }> {
    const rows = await this.db
      .selectFrom('users')
      .select([sql<boolean>`lower(email) = ${email.toLowerCase()}`.as('emailTaken'), sql<boolean>`lower(username) = ${username.toLowerCase()}`.as('usernameTaken')])
      .where((eb) => eb.or([eb(sql`lower(email)`, '=', email.toLowerCase()), eb(sql`lower(username)`, '=', username.toLowerCase())]))
      .execute();
    return { email: rows.some((r) => r.emailTaken), username: rows.some((r) => r.usernameTaken) };
  }

  create(values: NewUser): Promise<UserRow> {
    return this.db.insertInto('users').values(values).returning(userColumns).executeTakeFirstOrThrow();
  }

  updatePreferences(id: number, patch: PreferencesPatch): Promise<UserRow | undefined> {
    return this.updateOwnColumns(id, patch);
  }

  updateProfile(id: number, patch: ProfilePatch): Promise<UserRow | undefined> {
    return this.updateOwnColumns(id, patch);
  }

  /** The columns a user may change themselves, with updated_at; undefined when the user is gone. */
  private updateOwnColumns(id: number, patch: PreferencesPatch | ProfilePatch): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ ...patch, updatedAt: sql`now()` })
      .where('id', '=', id)
      .returning(userColumns)
      .executeTakeFirst();
  }

  /** Whether another user has this username, in any letter case (the unique index is on lower(username)). */
  async usernameTakenByOther(username: string, id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .where('id', '<>', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A new password, only while the hash is still the one checked: of two changes racing, one wins. */
  async replacePasswordHash(id: number, checkedHash: string, passwordHash: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ passwordHash, updatedAt: sql`now()` })
      .where('id', '=', id)
      .where('passwordHash', '=', checkedHash)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Changes the currency only while it is not locked; undefined when it is (or the user is gone). */
  updateCurrencyIfUnlocked(id: number, currency: string): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ currency, updatedAt: sql`now()` })
      .where('id', '=', id)
      .where('currencyLocked', '=', false)
      .returning(userColumns)
      .executeTakeFirst();
  }

  setVerificationToken(id: number, tokenHash: string, expires: Date): Promise<unknown> {
    return this.db
      .updateTable('users')
      .set({ emailVerificationToken: tokenHash, emailVerificationExpires: expires, updatedAt: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** Marks the email verified if the token is current; the token is cleared, so a link works once. */
  verifyEmailByToken(tokenHash: string): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ emailVerified: true, emailVerificationToken: null, emailVerificationExpires: null, updatedAt: sql`now()` })
      .where('emailVerificationToken', '=', tokenHash)
      .where('emailVerificationExpires', '>', sql<Date>`now()`)
      .returning(userColumns)
      .executeTakeFirst();
  }

  /**
   * A new password after a mailed reset link. The link proved the mailbox, so the email counts as
   * verified and any pending verification link is retired.
   */
  setPasswordAfterReset(id: number, passwordHash: string): Promise<unknown> {
    return this.db
      .updateTable('users')
      .set({ passwordHash, emailVerified: true, emailVerificationToken: null, emailVerificationExpires: null, updatedAt: sql`now()` })
      .where('id', '=', id)
      .execute();
  }
}
