/**
 * Structured header values: Content-Type and Content-Disposition (RFC 2045 §5.1, RFC 2183 §2), a
 * token then `; name=value` parameters, values quoted or not, read in one pass over the characters.
 * RFC 2231 extended parameters (`filename*=utf-8''r%C3%A9.xml`, `name*0=`, `name*1*=`) are joined
 * and decoded; they win over a plain parameter of the same name.
 */

export interface StructuredValue {
  /** The token before the first ';', lower-cased (`multipart/mixed`, `attachment`); '' when absent. */
  value: string;
  /** Parameter names lower-cased, values as sent (quotes and RFC 2231 encoding undone). */
  params: Map<string, string>;
}

/** RFC 2231 §3 continuations past this index are ignored: no real name needs more than a few. */
const MAX_CONTINUATIONS = 64;

export function parseStructuredValue(field: string | null): StructuredValue {
  const raw: [string, string][] = [];
  let at = field?.indexOf(';') ?? -1;
  const text = field ?? '';
  const value = (at === -1 ? text : text.slice(0, at)).trim().toLowerCase();
  while (at !== -1 && at < text.length) {
    at += 1; // past ';'
    const equals = text.indexOf('=', at);
    const semicolon = text.indexOf(';', at);
    if (equals === -1) break;
    if (semicolon !== -1 && semicolon < equals) {
      at = semicolon;
      continue;
    }
    const name = text.slice(at, equals).trim().toLowerCase();
    let cursor = equals + 1;
    while (text[cursor] === ' ' || text[cursor] === '\t') cursor += 1;
    let paramValue: string;
    if (text[cursor] === '"') {
      // quoted-string (RFC 5322 §3.2.4): a backslash quotes the next character.
      const pieces: string[] = [];
      let start = cursor + 1;
      cursor += 1;
      while (cursor < text.length && text[cursor] !== '"') {
        if (text[cursor] === '\\') {
          pieces.push(text.slice(start, cursor));
          start = cursor + 1;
          cursor += 1;
        }
        cursor += 1;
      }
      pieces.push(text.slice(start, cursor));
      paramValue = pieces.join('');
      at = text.indexOf(';', cursor);
    } else {
      at = text.indexOf(';', cursor);
      paramValue = text.slice(cursor, at === -1 ? undefined : at).trim();
    }
    if (name) raw.push([name, paramValue]);
  }
  return { value, params: joinExtended(raw) };
}

/** RFC 2231 §3–4: `name*` is charset'language'percent-encoded; `name*N` / `name*N*` are pieces in order. */
function joinExtended(raw: [string, string][]): Map<string, string> {
  const params = new Map<string, string>();
  const pieces = new Map<string, { encoded: boolean; value: string }[]>();
  for (const [name, value] of raw) {
    const star = name.indexOf('*');
    if (star === -1) {
      if (!params.has(name)) params.set(name, value);
      continue;
    }
    const base = name.slice(0, star);
    const rest = name.slice(star + 1);
    const encoded = rest === '' || rest.endsWith('*');
    const index = rest === '' ? 0 : Number.parseInt(rest, 10);
    if (!base || !Number.isInteger(index) || index < 0 || index >= MAX_CONTINUATIONS) continue;
    const list = pieces.get(base) ?? [];
    list[index] = { encoded, value };
    pieces.set(base, list);
  }
  for (const [base, list] of pieces) {
    const first = list[0];
    if (!first) continue;
    let charset = 'utf-8';
    let joined = '';
    for (const [index, piece] of list.entries()) {
      if (!piece) break; // a gap ends the value (RFC 2231 §3: pieces are numbered from 0 without gaps)
      let text = piece.value;
      if (index === 0 && piece.encoded) {
        const quote = text.indexOf("'");
        const secondQuote = quote === -1 ? -1 : text.indexOf("'", quote + 1);
        if (secondQuote !== -1) {
          charset = text.slice(0, quote).trim().toLowerCase() || charset;
          text = text.slice(secondQuote + 1);
        }
      }
      joined += piece.encoded ? percentDecode(text, charset) : text;
    }
    params.set(base, joined);
  }
  return params;
}

function percentDecode(text: string, charset: string): string {
  const bytes: number[] = [];
  for (let at = 0; at < text.length; at += 1) {
    const hex = text[at] === '%' ? Number.parseInt(text.slice(at + 1, at + 3), 16) : Number.NaN;
    if (Number.isNaN(hex)) bytes.push(text.charCodeAt(at) & 0xff);
    else {
      bytes.push(hex);
      at += 2;
    }
  }
  try {
    return new TextDecoder(charset).decode(Uint8Array.from(bytes));
  } catch {
    return Buffer.from(bytes).toString('latin1'); // a charset TextDecoder does not know
  }
}
