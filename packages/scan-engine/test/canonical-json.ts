/**
 * JSON text with keys sorted at every depth (own keys only, `__proto__` included): equal for equal
 * JSON whatever the key order, as jsonb keeps none.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(Object.getOwnPropertyDescriptor(value, key)!.value)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
