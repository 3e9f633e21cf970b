import { z } from './zod.js';
import { messages } from './messages.js';
import { dateFormats } from './preferences.js';
export { popupDateFormats, dateFormats, DEFAULT_DATE_FORMAT, DEFAULT_TIMEZONE, timezoneOptions } from './preferences.js';
export { EXAMPLE_HOST, messages } from './messages.js';

/**
 * Labels of letters, digits and hyphens, each 1-63 characters and not starting or ending with a
 * hyphen, ending in a top-level label of at least two letters (part 1 §5, part 2 §5).
 */
export const DOMAIN_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const IPV4_PATTERN = /^\d{1,3}(?:\.\d{1,3}){3}$/;

export const emailSchema = z.string().trim().email(messages.invalidEmail).max(254, messages.invalidEmail);

/** A domain name as the Add Domain form and `POST /api/domains` take it: trimmed and lower-cased. */
export const domainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(4, messages.domainMin)
  .max(253, messages.domainInvalid)
  .regex(DOMAIN_PATTERN, messages.domainInvalid);

/** The landing page's domain input, its rules checked in the spec's order (part 2 §5). */
export function landingDomainError(input: string): string | null {
  const value = input.trim();
  if (value === '') return messages.landingDomainEmpty;
  if (value.includes('@')) return messages.landingDomainEmail;
  if (IPV4_PATTERN.test(value) || (value.match(/:/g)?.length ?? 0) > 1) return messages.landingDomainIp;
  if (!DOMAIN_PATTERN.test(value)) return messages.landingDomainInvalid;
  return null;
}

/** True when none of `issues` concerns one of `fields` (top-level field names). */
export function fieldsValid(issues: ReadonlyArray<{ path?: ReadonlyArray<PropertyKey> }>, fields: readonly string[]): boolean {
  // An issue without a path means the input was not an object at all: nothing to compare.
  return !issues.some((issue) => !issue.path?.length || fields.includes(String(issue.path[0])));
}

export const usernameSchema = z
  .string(messages.required)
  .trim()
  .min(1, { error: messages.required, abort: true })
  .max(50, messages.usernameMax)
  .regex(/^[\w.-]+$/, messages.usernameChars);

/*
 * Free text as users type it. Control characters (C0, DEL, C1) have no place in it, Postgres refuses
 * NUL outright, and a lone surrogate has no UTF-8 form, so the driver would
 * store U+FFFD instead. A multi-line text keeps its tab and line breaks.
 */
const CONTROL_CHARACTER = /[\p{Cc}\p{Cs}]/u;
const CONTROL_CHARACTER_BUT_LINE_BREAK = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

export const controlCharactersMessage = (label: string) => `${label} must not contain control characters`;

export interface TextFieldOptions {
  /** How the field is named in its messages, e.g. "First name". */
  label: string;
  /** Longest value after trimming. */
  max: number;
  /** Allows tab, CR and LF (a note, a description); single-line fields refuse them. */
  multiline?: boolean;
  /** Makes the field required (non-empty after trimming), with this message when missing or empty. */
  required?: string;
}

/** A trimmed free-text field that refuses control characters: every text input of the contracts uses it. */
export function textField({ label, max, multiline = false, required }: TextFieldOptions) {
  const trimmed = z.string(required === undefined ? undefined : { error: required }).trim();
  return (required === undefined ? trimmed : trimmed.min(1, { error: required, abort: true }))
    .refine((v) => !(multiline ? CONTROL_CHARACTER_BUT_LINE_BREAK : CONTROL_CHARACTER).test(v), controlCharactersMessage(label))
    .max(max, `${label} is too long`);
}

/** An optional name field (first or last name): trimmed, empty read as none. */
export const optionalName = (label: string) =>
  textField({ label, max: 100 })
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * Passwords are at least 8 characters on every form and call (register, login, reset). The spec had 6
 * on login and register; the hardening issue raised it, and no account predates the change.
 */
export const PASSWORD_MIN_LENGTH = 8;
/** A password field: `message` for a missing or short value; 1024 bounds the hashing work. */
export const passwordField = (message: string = messages.passwordMin8) =>
  z.string(message).min(PASSWORD_MIN_LENGTH, message).max(1024);

export const loginSchema = z.object({
  email: emailSchema,
  password: passwordField(),
});

export const signupSources = ['direct', 'quick-check', 'landing_page'] as const;
export const signupSourceSchema = z.enum(signupSources);
export type SignupSource = z.infer<typeof signupSourceSchema>;

export const registerSchema = z
  .object({
    username: usernameSchema,
    email: emailSchema,
    confirmEmail: emailSchema,
    password: passwordField(),
    confirmPassword: passwordField(messages.confirmPasswordMin8),
    firstName: optionalName('First name'),
    lastName: optionalName('Last name'),
    // Unknown sources are read as direct, as the spec says ("else direct").
    signupSource: z.string().nullish().transform((v) => signupSourceSchema.catch('direct').parse(v ?? 'direct')),
    quickCheckDomain: z
      .union([domainNameSchema, z.literal(''), z.null()])
      .optional()
      .transform((v) => (v ? v : null)),
    showUpgradeNotification: z.boolean().optional().default(false),
  })
  // A mismatch is only reported once both fields are valid, so each field shows one message.
  .refine((v) => v.password === v.confirmPassword, {
    message: messages.passwordsDontMatch,
    path: ['confirmPassword'],
    when: (payload) => fieldsValid(payload.issues, ['password', 'confirmPassword']),
  })
  .refine((v) => v.email.toLowerCase() === v.confirmEmail.toLowerCase(), {
    message: messages.emailsDontMatch,
    path: ['confirmEmail'],
    when: (payload) => fieldsValid(payload.issues, ['email', 'confirmEmail']),
  });

/** The reset form on the client: both fields, matching (part 1 §5). */
export const resetPasswordFormSchema = z
  .object({
    password: passwordField(),
    confirmPassword: passwordField(),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: messages.passwordsDontMatch,
    path: ['confirmPassword'],
    when: (payload) => fieldsValid(payload.issues, ['password', 'confirmPassword']),
  });

export const dateFormatSchema = z.enum(dateFormats, { error: 'Please choose one of the offered date formats' });
export type DateFormat = z.infer<typeof dateFormatSchema>;

function isIanaZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Any IANA zone is accepted (the browser's own zone may lie outside the list). */
export const timezoneSchema = z
  .string()
  .trim()
  .min(1, messages.required)
  .max(64)
  .refine(isIanaZone, { message: 'Please choose a valid timezone' });
