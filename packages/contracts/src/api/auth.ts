import { z } from '../zod.js';
import { userSchema } from '../entities/user.js';
import { emailSchema, loginSchema, messages, passwordField, registerSchema } from '../validation.js';

/** POST /api/auth/login */
export const loginBody = loginSchema;
export type LoginBody = z.infer<typeof loginBody>;
export const authAnswer = z.object({ token: z.string(), user: userSchema });
export type AuthAnswer = z.infer<typeof authAnswer>;

/**
 * POST /api/auth/register. A body that is not an object (an array, a number, null) stops at the
 * object check, so the schema's cross-field refinements never run on it (they would throw: a 500).
 */
export const registerBody = registerSchema;
export type RegisterBody = z.input<typeof registerSchema>;
export const registerAnswer = z.union([
  authAnswer,
  z.object({ emailVerificationRequired: z.literal(true), message: z.string() }),
]);
export type RegisterAnswer = z.infer<typeof registerAnswer>;

/** POST /api/auth/logout */
export const logoutAnswer = z.object({ success: z.literal(true) });

/** POST /api/auth/forgot-password: the same answer whether or not the address is known. */
export const forgotPasswordBody = z.object({ email: emailSchema });
export const forgotPasswordAnswer = z.object({ message: z.string() });
export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for that email, a password reset link has been sent.';

/** POST /api/auth/reset-password-with-token */
export const resetPasswordBody = z.object({
  token: z.string(messages.resetTokenMissing).trim().min(1, messages.resetTokenMissing).max(512),
  newPassword: passwordField(),
});
export const resetPasswordAnswer = z.object({ message: z.string() });
export const RESET_TOKEN_INVALID = 'Invalid or expired reset token. Please request a new password reset.';

/** GET /api/auth/verify-email?token= */
export const verifyEmailQuery = z.object({
  token: z.string(messages.verificationTokenMissing).trim().min(1, messages.verificationTokenMissing).max(512),
});
export const verifyEmailAnswer = authAnswer;
export const VERIFICATION_TOKEN_INVALID = 'Invalid or expired verification link. Please register again or log in.';

export const INVALID_CREDENTIALS = 'Invalid email or password';
/** 429 on login while the account waits after repeated failures (any email, known or not). */
export function loginThrottledMessage(retryAfterSeconds: number): string {
  const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const wait = retryAfterSeconds < 60 ? count(retryAfterSeconds, 'second') : count(Math.ceil(retryAfterSeconds / 60), 'minute');
  return `Too many failed login attempts. Please try again in ${wait}.`;
}
export const EMAIL_NOT_VERIFIED = 'Please verify your email address before logging in. Check your inbox for the verification link.';
export const EMAIL_TAKEN = 'An account with this email already exists';
export const USERNAME_TAKEN = 'This username is already taken';
export const NOT_AUTHENTICATED = 'Authentication required. Please log in.';
