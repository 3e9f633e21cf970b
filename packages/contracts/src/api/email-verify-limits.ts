/** The bulk mode's limits and plan message, without zod. */

/**
 * POST /api/email-verify/batch (standard and advanced): the bulk mode sends its list (up to
 * `EMAIL_VERIFY_BULK_MAX` addresses) in batches of `EMAIL_VERIFY_BATCH_MAX`, one after another, so
 * the page shows progress and can stop. Results come back in the order asked.
 */
export const EMAIL_VERIFY_BULK_MAX = 1_000;

export const EMAIL_VERIFY_BATCH_MAX = 50;

export const BULK_VERIFY_PLAN_MESSAGE = 'Bulk verification is available on the Standard and Advanced plans.';
