import type { CheckDetails, CheckType, DomainCheck } from '@sendwell/contracts';

/**
 * A check's details, typed by its type. The answer was checked against the contracts' schemas where it
 * was made, and every field of the details is optional, so screens read them as typed instead of
 * parsing again (which took zod's schemas into every screen that shows a check).
 */
export function checkDetails<T extends CheckType>(check: DomainCheck | undefined, type: T): CheckDetails<T> | undefined {
  return check?.type === type ? (check.details as CheckDetails<T>) : undefined;
}

/** The details of the check of `type` among a scan's checks. */
export function detailsIn<T extends CheckType>(checks: readonly DomainCheck[], type: T): CheckDetails<T> | undefined {
  return checkDetails(
    checks.find((c) => c.type === type),
    type,
  );
}
