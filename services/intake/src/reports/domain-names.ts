/** A domain as reports are compared by: trimmed, lower-cased, without the root's trailing dot. */
export function normaliseDomain(domain: string): string {
  const lower = domain.trim().toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** `name` is `owner` or a name below it; both already normalised. */
export function isDomainOrBelow(name: string, owner: string): boolean {
  return name === owner || name.endsWith(`.${owner}`);
}
