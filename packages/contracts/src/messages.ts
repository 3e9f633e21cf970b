/** Messages and constants of the screens, without zod: a screen that shows a message need not carry the schemas. */

/** The example host the spec's messages name ({host} in spec/README.md). */
export const EXAMPLE_HOST = 'example.com';

export const messages = {
  invalidEmail: 'Please enter a valid email',
  passwordMin8: 'Password must be at least 8 characters',
  confirmPasswordMin8: 'Confirm password must be at least 8 characters',
  passwordsDontMatch: "Passwords don't match",
  emailsDontMatch: "Email addresses don't match",
  required: 'Required',
  domainMin: 'Domain must be at least 4 characters.',
  domainInvalid: `Please enter a valid domain name (e.g., ${EXAMPLE_HOST}, domain.co.uk, ${EXAMPLE_HOST}.au)`,
  landingDomainEmpty: 'Please enter a domain name',
  landingDomainEmail: 'Please enter a domain name, not an email address',
  landingDomainIp: 'Please enter a domain name, not an IP address',
  landingDomainInvalid: `Please enter a valid domain name (e.g., ${EXAMPLE_HOST})`,
  resetTokenMissing: 'Invalid or missing reset token. Please request a new password reset.',
  verificationTokenMissing: 'Verification token is missing',
  emailRequired: 'Please enter an email address to verify',
  usernameChars: 'Username may contain only letters, digits, dots, hyphens and underscores',
  usernameMax: 'Username must be at most 50 characters',
} as const;
