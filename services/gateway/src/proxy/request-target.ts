/**
 * The one form of an `/api` path the gateway matches rules and routes against and forwards:
 * services route on what find-my-way makes of a URL (percent-decoded, cut at `?` and `#`), so the
 * gateway must see the same path, or `/api/auth/%6Cogin` reaches the login handler unlimited.
 */
export type RequestTarget = { ok: true; path: string; search: string } | { ok: false; message: string };

/** RFC 3986 §2.3: decoding these never changes what a URL means. */
const UNRESERVED = /^[\w\-.~]$/;
const HEX = /^[0-9A-F]{2}$/i;

const refuse = (message: string): RequestTarget => ({ ok: false, message });

/**
 * Drops the fragment, keeps the query string (`search`, with its `?`) as sent, and normalises the
 * path: unreserved characters decoded, other escapes kept (upper case), empty segments (`//`, a
 * trailing `/`) removed. Refused: `.`/`..` segments (encoded or not), encoded `/` or `\`, a raw `\`,
 * NUL and malformed escapes; no service has a route that needs any of them.
 */
export function normalizeRequestTarget(url: string): RequestTarget {
  const hash = url.indexOf('#');
  const withoutFragment = hash === -1 ? url : url.slice(0, hash);
  const q = withoutFragment.indexOf('?');
  const rawPath = q === -1 ? withoutFragment : withoutFragment.slice(0, q);
  const search = q === -1 ? '' : withoutFragment.slice(q);
  if (!rawPath.startsWith('/')) return refuse('The request path must start with "/".');

  let decoded = '';
  for (let i = 0; i < rawPath.length; i++) {
    const char = rawPath[i]!;
    if (char === '\\') return refuse('The request path must not contain "\\".');
    if (char !== '%') {
      decoded += char;
      continue;
    }
    const hex = rawPath.slice(i + 1, i + 3);
    if (!HEX.test(hex)) return refuse('The request path has a malformed percent-encoding.');
    const byte = Number.parseInt(hex, 16);
    if (byte === 0x2f || byte === 0x5c) return refuse('The request path must not contain an encoded "/" or "\\".');
    if (byte === 0) return refuse('The request path must not contain NUL.');
    const plain = String.fromCharCode(byte);
    decoded += UNRESERVED.test(plain) ? plain : `%${hex.toUpperCase()}`;
    i += 2;
  }

  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..')) return refuse('The request path must not contain "." or ".." segments.');
  return { ok: true, path: `/${segments.join('/')}`, search };
}
