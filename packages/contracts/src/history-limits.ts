/*
 * The history reads' sizes, apart from their schemas (api/domains.ts builds the queries on these and
 * re-exports them): the history screens import them without zod.
 */
/** Scans a history page holds when `limit` is not given: for every domain, and for one (`domainId`). */
export const HISTORY_PAGE_DEFAULT = 10;
export const HISTORY_DOMAIN_PAGE_DEFAULT = 100;
/** The most a page may ask for; with at most 10 active domains and 450 bytes a scan, an answer stays under 100 KB. */
export const HISTORY_PAGE_MAX = 200;
/** Every domain's page without `domainId` holds at most this many scans, whatever `limit` says. */
export const HISTORY_OVERVIEW_MAX = 20;

/** The days `GET /api/domains/{id}/history/days` answers when `from` is not given, and the most it spans. */
export const HISTORY_DAYS_DEFAULT = 90;
export const HISTORY_DAYS_MAX = 400;
