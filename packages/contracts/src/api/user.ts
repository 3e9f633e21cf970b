import { z } from '../zod.js';
import { userSchema } from '../entities/user.js';
import { currencySchema } from '../plan-schemas.js';
import { dateFormatSchema, fieldsValid, messages, optionalName, passwordField, timezoneSchema, usernameSchema } from '../validation.js';

const CURRENT_PASSWORD_REQUIRED = 'Please enter your current password';

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

/**
 * PUT /api/user/profile: first and last name and username, with the registration form's rules. The
 * email cannot be changed ('Your email cannot be changed', part 1 §2, Settings → Account).
 */
export const updateProfileBody = z.object(
  { firstName: optionalName('First name'), lastName: optionalName('Last name'), username: usernameSchema },
  { error: messages.required },
);
export type UpdateProfileBody = z.input<typeof updateProfileBody>;
export const PROFILE_UPDATED_MESSAGE = 'Profile updated';

/**
 * PUT /api/user/password: the current password proves it is the owner at the keyboard (a session
 * left open is not enough); the new one follows the registration rule. A wrong current password is
 * a 400, as for deletion: the session itself is fine.
 */
export const changePasswordBody = z
  .object(
    {
      currentPassword: z.string(CURRENT_PASSWORD_REQUIRED).min(1, CURRENT_PASSWORD_REQUIRED).max(1024),
      newPassword: passwordField(),
      confirmPassword: passwordField(messages.confirmPasswordMin8),
    },
    { error: CURRENT_PASSWORD_REQUIRED },
  )
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: messages.passwordsDontMatch,
    path: ['confirmPassword'],
    when: (payload) => fieldsValid(payload.issues, ['newPassword', 'confirmPassword']),
  });
export type ChangePasswordBody = z.input<typeof changePasswordBody>;
export const WRONG_CURRENT_PASSWORD = 'Your current password is incorrect. Your password was not changed.';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed. You were signed out on every other device.';
export const passwordChangedAnswer = z.object({ message: z.string() });

/** DELETE /api/user when the subscription cannot be ended: nothing is deleted, so nobody is charged for a deleted account. */
export const ACCOUNT_DELETION_UNAVAILABLE =
  'We could not reach our payment provider to end your subscription, so nothing was deleted. Please try again in a few minutes.';
/** GET /api/user/export when the invoices cannot be read: a partial export would look complete. */
export const ACCOUNT_EXPORT_UNAVAILABLE = 'We could not gather your billing history right now, so no export was made. Please try again in a few minutes.';
