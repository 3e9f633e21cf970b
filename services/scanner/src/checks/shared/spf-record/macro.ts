/**
 * SPF macros (RFC 7208 §7): parsing a macro-string into literal text and expansions once, when the
 * record is parsed, and expanding it cheaply per evaluation.
 */

export type MacroLetter = 's' | 'l' | 'o' | 'd' | 'i' | 'p' | 'v' | 'h' | 'c' | 'r' | 't';

export interface MacroExpansion {
  letter: MacroLetter;
  /** Upper-case letter: URL-escape the result (§7.3). */
  escape: boolean;
  /** Keep this many right-hand parts; 0 keeps all. */
  digits: number;
  reverse: boolean;
  /** Characters the value is split on; '' means the default '.'. */
  delimiters: string;
}

export type MacroPart = string | MacroExpansion;

/** A parsed macro-string: the parts, and whether it needs the sender-independent letters only. */
export interface MacroString {
  parts: MacroPart[];
  /** The letters used, for static analysis (which terms depend on the sender or the IP). */
  letters: Set<MacroLetter>;
}

export class MacroSyntaxError extends Error {
  override name = 'MacroSyntaxError';
}

const DOMAIN_LETTERS = 'slodiphv';
const EXP_ONLY_LETTERS = 'crt';
const DELIMITERS = '.-+,/_=';
/** RFC 7208 §7.3 requires support for at least 128 parts; anything longer is refused as a syntax error. */
const MAX_DIGITS = 128;

/**
 * Parses a macro-string (§7.1). `explanation` allows the letters c, r and t, which only `exp=` text may
 * use (§7.2). Throws MacroSyntaxError on a bad `%` sequence.
 */
export function parseMacroString(text: string, explanation = false): MacroString {
  const parts: MacroPart[] = [];
  const letters = new Set<MacroLetter>();
  if (!text.includes('%')) {
    if (text !== '') parts.push(text);
    return { parts, letters };
  }
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch !== '%') {
      literal += ch;
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === '%') literal += '%';
    else if (next === '_') literal += ' ';
    else if (next === '-') literal += '%20';
    else if (next === '{') {
      const close = text.indexOf('}', i + 2);
      if (close < 0) throw new MacroSyntaxError(`unterminated macro in "${text}"`);
      const body = text.slice(i + 2, close);
      const expansion = parseExpansion(body, explanation);
      if (literal !== '') parts.push(literal);
      literal = '';
      parts.push(expansion);
      letters.add(expansion.letter);
      i = close + 1;
      continue;
    } else {
      throw new MacroSyntaxError(`"%${next ?? ''}" is not a macro; write "%%" for a literal percent sign`);
    }
    i += 2;
  }
  if (literal !== '') parts.push(literal);
  return { parts, letters };
}

function parseExpansion(body: string, explanation: boolean): MacroExpansion {
  const raw = body[0];
  if (raw === undefined) throw new MacroSyntaxError('empty macro "%{}"');
  const letter = raw.toLowerCase();
  const known = DOMAIN_LETTERS.includes(letter) || (explanation && EXP_ONLY_LETTERS.includes(letter));
  if (!known) {
    const where = EXP_ONLY_LETTERS.includes(letter) ? ' (c, r and t are allowed only in exp= text, RFC 7208 §7.2)' : '';
    throw new MacroSyntaxError(`unknown macro letter "${raw}" in "%{${body}}"${where}`);
  }
  let j = 1;
  let digitText = '';
  while (j < body.length && body.charCodeAt(j) >= 48 && body.charCodeAt(j) <= 57) digitText += body[j++];
  let reverse = false;
  if (body[j] === 'r' || body[j] === 'R') {
    reverse = true;
    j++;
  }
  const delimiters = body.slice(j);
  for (const d of delimiters) {
    if (!DELIMITERS.includes(d)) throw new MacroSyntaxError(`bad delimiter "${d}" in "%{${body}}"`);
  }
  const digits = digitText === '' ? 0 : Number(digitText);
  if (digitText !== '' && (digits === 0 || digits > MAX_DIGITS)) {
    throw new MacroSyntaxError(`the part count in "%{${body}}" must be between 1 and ${MAX_DIGITS} (RFC 7208 §7.3)`);
  }
  return { letter: letter as MacroLetter, escape: raw !== letter, digits, reverse, delimiters };
}

/** Values of the macro letters for one evaluation (§7.3). */
export type MacroValues = Record<MacroLetter, string>;

/** URL-escapes everything outside RFC 3986 "unreserved" (§7.3). */
function escapeValue(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function transform(value: string, expansion: MacroExpansion): string {
  if (expansion.digits === 0 && !expansion.reverse && (expansion.delimiters === '' || expansion.delimiters === '.')) {
    return value;
  }
  let parts: string[];
  if (expansion.delimiters === '' || expansion.delimiters === '.') parts = value.split('.');
  else {
    parts = [];
    let start = 0;
    for (let k = 0; k < value.length; k++) {
      if (expansion.delimiters.includes(value[k] ?? '')) {
        parts.push(value.slice(start, k));
        start = k + 1;
      }
    }
    parts.push(value.slice(start));
  }
  if (expansion.reverse) parts.reverse();
  if (expansion.digits > 0 && expansion.digits < parts.length) parts = parts.slice(parts.length - expansion.digits);
  return parts.join('.');
}

export function expandMacro(macro: MacroString, values: MacroValues): string {
  const { parts } = macro;
  if (parts.length === 1 && typeof parts[0] === 'string') return parts[0];
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const transformed = transform(values[part.letter], part);
    out += part.escape ? escapeValue(transformed) : transformed;
  }
  return out;
}

/**
 * A domain name built from a macro, made fit for a query (§7.3): labels removed from the left until it
 * is at most 253 characters; a trailing dot dropped.
 */
export function toQueryName(expanded: string): string {
  let name = expanded.endsWith('.') ? expanded.slice(0, -1) : expanded;
  while (name.length > 253) {
    const dot = name.indexOf('.');
    if (dot < 0) return name.slice(name.length - 253);
    name = name.slice(dot + 1);
  }
  return name;
}
