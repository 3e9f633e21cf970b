import { currencySchema, defaultCurrency, signupSourceSchema, type User } from '@sendwell/contracts';
import { isAdministrator } from '@sendwell/server-kit';
import type { UserRow } from '../repositories/user.repository.js';

const toIso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

/** The one place that knows both the users row and the contracts' user DTO. */
export function toUserDto(row: UserRow, adminEmail: string | undefined): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    planType: row.planType,
    currency: currencySchema.catch(defaultCurrency).parse(row.currency),
    currencyLocked: row.currencyLocked,
    preferencesSet: row.preferencesSet,
    timezone: row.timezone,
    dateFormat: row.dateFormat,
    storageUsage: row.storageUsage,
    storageLimit: row.storageLimit,
    oneTimeCredits: row.oneTimeCredits,
    signupSource: signupSourceSchema.catch('direct').parse(row.signupSource),
    quickCheckDomain: row.quickCheckDomain,
    showUpgradeNotification: row.showUpgradeNotification,
    emailVerified: row.emailVerified,
    stripeCustomerId: row.stripeCustomerId,
    stripeSubscriptionId: row.stripeSubscriptionId,
    isAdmin: isAdministrator(row, adminEmail),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}
