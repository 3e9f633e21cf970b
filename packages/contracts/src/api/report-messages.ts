/** Messages of the report calls, without zod. */

export const NO_DOMAINS_FOR_REPORTS = 'No domains available - You need to add domains before generating reports.';
