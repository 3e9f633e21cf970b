/**
 * A stored string read back as one of a contracts enum's values, or `fallback` for a value this
 * build does not know. A Set lookup per row: `schema.catch(x).parse(v)` built a new zod schema on
 * every call, which showed in the profile of the list and history answers.
 */
export function knownOr<const T extends string>(schema: { options: readonly T[] }, fallback: NoInfer<T>): (value: string) => T {
  const known: ReadonlySet<string> = new Set(schema.options);
  return (value) => (known.has(value) ? (value as T) : fallback);
}
