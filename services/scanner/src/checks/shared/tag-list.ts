/**
 * The DKIM tag-list (RFC 6376 §3.2), which DMARC records reuse (RFC 7489 §6.3):
 *
 *   tag-list  =  tag-spec *( ";" tag-spec ) [ ";" ]
 *   tag-spec  =  [FWS] tag-name [FWS] "=" [FWS] tag-value [FWS]
 *   tag-name  =  ALPHA *ALNUMPUNC            ; ALNUMPUNC = ALPHA / DIGIT / "_"
 *   tag-value =  [ tval *( 1*(WSP / FWS) tval ) ]
 *   tval      =  1*VALCHAR                   ; VALCHAR = %x21-3A / %x3C-7E
 *
 * VALCHAR excludes ";", so splitting on ";" is exact. Names are case-sensitive in DKIM; DMARC
 * callers pass `lowerCaseNames` because its ABNF literals are case-insensitive (RFC 5234 §2.3).
 */

export interface Tag {
  name: string;
  /** The value without surrounding whitespace; inner whitespace kept as published. */
  value: string;
}

export type TagListFault =
  | { kind: 'syntax'; segment: string; reason: string }
  | { kind: 'duplicate'; name: string };

export interface TagList {
  /** Tags in published order (a duplicate's later occurrences are left out). */
  tags: Tag[];
  /** Faults found; any fault makes the whole tag-list invalid per RFC 6376 §3.2. */
  faults: TagListFault[];
}

const TAG_NAME = /^[A-Z]\w*$/i;
/** WSP and the CR/LF of FWS (RFC 5234 appendix B.1). */
function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

function isValChar(code: number): boolean {
  return code >= 0x21 && code <= 0x7e && code !== 0x3b;
}

function checkValue(value: string): string | null {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (isWhitespace(code) || isValChar(code)) continue;
    return `character ${JSON.stringify(value[i])} is not allowed in a tag value`;
  }
  return null;
}

export function parseTagList(text: string, options: { lowerCaseNames?: boolean } = {}): TagList {
  const tags: Tag[] = [];
  const faults: TagListFault[] = [];
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  const segments = text.split(';');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const trimmed = segment.trim();
    if (trimmed.length === 0) {
      // Only the optional trailing ";" may leave an empty segment; "a=1;;b=2" is not a tag-list,
      // but receivers accept it everywhere, so it is reported and the parse goes on.
      if (i !== segments.length - 1 && !(i === 0 && segments.length === 1)) {
        faults.push({ kind: 'syntax', segment, reason: 'empty tag between two ";"' });
      }
      continue;
    }
    const equals = trimmed.indexOf('=');
    if (equals < 0) {
      faults.push({ kind: 'syntax', segment: trimmed, reason: 'no "=" between tag name and value' });
      continue;
    }
    let name = trimmed.slice(0, equals).trim();
    const value = trimmed.slice(equals + 1).trim();
    if (!TAG_NAME.test(name)) {
      faults.push({ kind: 'syntax', segment: trimmed, reason: `"${name}" is not a valid tag name` });
      continue;
    }
    const valueFault = checkValue(value);
    if (valueFault) {
      faults.push({ kind: 'syntax', segment: trimmed, reason: valueFault });
      continue;
    }
    if (options.lowerCaseNames) name = name.toLowerCase();
    if (seen.has(name)) {
      // One fault per repeated name, remembered in a set: scanning the faults would be quadratic.
      if (!duplicates.has(name)) faults.push({ kind: 'duplicate', name });
      duplicates.add(name);
      continue;
    }
    seen.add(name);
    tags.push({ name, value });
  }
  return { tags, faults };
}

/** The value of a tag, or undefined when absent. */
export function tagValue(list: TagList, name: string): string | undefined {
  for (const tag of list.tags) if (tag.name === name) return tag.value;
  return undefined;
}

/** A colon-separated list value (h=, s=, t=, fo=, rf=) split and trimmed (RFC 6376 §3.6.1). */
export function colonList(value: string): string[] {
  return value
    .split(':')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}
