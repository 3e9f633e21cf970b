import type { MimeLeaf } from '../mime/read-mime-leaves.js';

/** A leaf's body as text with LF line ends: failure reports are ASCII or UTF-8 (RFC 6532), never binary. */
export function leafText(leaf: MimeLeaf): string {
  return new TextDecoder().decode(leaf.body).replaceAll('\r\n', '\n');
}
