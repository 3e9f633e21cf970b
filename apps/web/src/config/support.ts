/** Where users write to; one place, so the support screen and any mail template agree. */
export const SUPPORT_EMAIL = 'support@sendwell.app';
