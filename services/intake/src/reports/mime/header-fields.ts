export interface HeaderField {
  /** Lower-cased. */
  name: string;
  value: string;
}

/**
 * Header fields (RFC 5322 §2.2), and the feedback-report fields that share their syntax
 * (RFC 5965 §3.5): one pass over the lines, the name up to the first ':', and continuation lines
 * (starting with a space or tab) unfolded into the field before them. Lines without a ':' are skipped.
 */
export function parseHeaderFields(block: string): HeaderField[] {
  const fields: HeaderField[] = [];
  // Pieces are joined once per field: appending to a growing string and trimming it each line is quadratic.
  let pieces: string[] | null = null;
  let name = '';
  const close = () => {
    if (pieces) fields.push({ name, value: pieces.filter((piece) => piece !== '').join(' ') });
    pieces = null;
  };
  for (const line of block.split('\n')) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && pieces) {
      pieces.push(line.trim());
      continue;
    }
    close();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    name = line.slice(0, colon).trim().toLowerCase();
    pieces = [line.slice(colon + 1).trim()];
  }
  close();
  return fields;
}

export function firstField(fields: HeaderField[], name: string): string | null {
  return fields.find((field) => field.name === name)?.value ?? null;
}

export function allFields(fields: HeaderField[], name: string): string[] {
  return fields.filter((field) => field.name === name).map((field) => field.value);
}
