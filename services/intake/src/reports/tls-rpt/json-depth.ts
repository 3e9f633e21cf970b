/**
 * The deepest nesting of arrays and objects in a JSON text, counted in one pass outside strings.
 * Run before JSON.parse so a document nested thousands deep is refused by our cap, not by
 * whichever RangeError V8 or a recursive validator would raise. Stops counting past `limit`.
 */
export function jsonDepthExceeds(json: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const char = json.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) {
      depth--;
    }
  }
  return false;
}
