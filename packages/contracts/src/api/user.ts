import { z } from 'zod';
import { userSchema } from '../entities/user.js';
import { currencySchema } from '../plans.js';
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

/** Every preference call answers the updated user. */
export const userUpdateAnswer = z.object({ message: z.string(), user: userSchema });
export type UserUpdateAnswer = z.infer<typeof userUpdateAnswer>;
