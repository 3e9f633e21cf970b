/** Timestamps travel as ISO strings; pg gives Date objects (and a string from JSON aggregates). */
export const toIso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();
export const toIsoOrNull = (value: Date | string | null | undefined): string | null => (value == null ? null : toIso(value));
