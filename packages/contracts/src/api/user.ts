import { z } from '../zod.js';
import { userSchema } from '../entities/user.js';
import { currencySchema } from '../plan-schemas.js';
import { dateFormatSchema, timezoneSchema } from '../validation.js';

/** GET /api/user */
export const getUserAnswer = userSchema;

/** PUT /api/user/timezone */
export const updateTimezoneBody = z.object({ timezone: timezoneSchema });
/** PUT /api/user/date-format */
export const updateDateFormatBody = z.object({ dateFormat: dateFormatSchema });
/** PUT /api/user/currency: refused once the currency is locked by a payment. */
export const updateCurrencyBody = z.object({
  currency: z.enum(currencySchema.options, { error: 'Currency must be one of AUD, USD or CAD' }),
});
export const CURRENCY_LOCKED_MESSAGE =
  'Your currency is locked after your first payment and cannot be changed. Contact support if you need help.';

/**
 * DELETE /api/user: the account and everything it owns (domains, scans, alerts, reports, sessions),
 * confirmed with the password. A wrong password is a 400, not a 401: the session is fine, and clients
 * read 401 as "signed out".
 */
export const PASSWORD_CONFIRMATION_REQUIRED = 'Please enter your password to delete your account';
export const deleteUserBody = z.object(
  { password: z.string(PASSWORD_CONFIRMATION_REQUIRED).min(1, PASSWORD_CONFIRMATION_REQUIRED).max(1024) },
  { error: PASSWORD_CONFIRMATION_REQUIRED },
);
export const deleteUserAnswer = z.object({ message: z.string() });
export const DELETE_ACCOUNT_WRONG_PASSWORD = 'Incorrect password. Your account was not deleted.';
export const ACCOUNT_DELETED_MESSAGE = 'Your account and all its data have been deleted.';

/** Every preference call answers the updated user. */
export const userUpdateAnswer = z.object({ message: z.string(), user: userSchema });
export type UserUpdateAnswer = z.infer<typeof userUpdateAnswer>;
