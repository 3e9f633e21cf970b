import { z } from '../zod.js';
import { isoDateTime, idSchema } from '../common.js';
import { currencySchema } from '../plan-schemas.js';
import { signupSourceSchema } from '../validation.js';

/** The user as every call answers it: never the password hash nor any token. */
export const userSchema = z.object({
  id: idSchema,
  username: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  /** A plan value the product does not know is passed through; the rules treat it as "other". */
  planType: z.string(),
  currency: currencySchema,
  currencyLocked: z.boolean(),
  preferencesSet: z.boolean(),
  timezone: z.string(),
  dateFormat: z.string(),
  storageUsage: z.number().int(),
  storageLimit: z.number().int(),
  oneTimeCredits: z.number().int(),
  signupSource: signupSourceSchema,
  quickCheckDomain: z.string().nullable(),
  showUpgradeNotification: z.boolean(),
  emailVerified: z.boolean(),
  stripeCustomerId: z.string().nullable(),
  stripeSubscriptionId: z.string().nullable(),
  /** True for the one administrator account (its email equals ADMIN_EMAIL). */
  isAdmin: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type User = z.infer<typeof userSchema>;

/** One sign-in; logout and password reset revoke it. */
export const sessionSchema = z.object({
  id: z.string().uuid(),
  userId: idSchema,
  expires: isoDateTime,
  createdAt: isoDateTime,
});
export type Session = z.infer<typeof sessionSchema>;
