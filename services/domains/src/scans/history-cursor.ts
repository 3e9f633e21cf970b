import { createHash } from 'node:crypto';
import { badRequest } from '@sendwell/server-kit';

/** Where a history page ends: its oldest scan's creation (to the microsecond, as Postgres keeps it) and id. */
export interface HistoryCursor {
  domainId: number;
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC). */
  at: string;
  id: string;
}

export const INVALID_CURSOR = 'Invalid cursor';

const AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DOMAIN_ID = /^[1-9]\d{0,9}$/;
const VERSION = 'h1';

/**
 * A check of the fields, so an edited cursor is refused rather than read as another position. Not a
 * secret: a forged cursor could only point inside the caller's own domain, which `to` does anyway.
 */
const check = (payload: string) => createHash('sha256').update(payload).digest('base64url').slice(0, 10);

/** The opaque `nextCursor`: base64url of `h1|domainId|at|id|check`. */
export function encodeHistoryCursor(cursor: HistoryCursor): string {
  const payload = `${VERSION}|${cursor.domainId}|${cursor.at}|${cursor.id}`;
  return Buffer.from(`${payload}|${check(payload)}`, 'utf8').toString('base64url');
}

/**
 * The cursor a client sent back, checked field by field so that nothing malformed or altered reaches
 * SQL (a bad timestamp would be a 500 there): anything else answers 400 "Invalid cursor".
 */
export function decodeHistoryCursor(value: string): HistoryCursor {
  if (!/^[\w-]+$/.test(value)) throw badRequest(INVALID_CURSOR);
  const text = Buffer.from(value, 'base64url').toString('utf8');
  // Node decodes leniently: the cursor must be exactly what encoding the decoded text gives back.
  if (Buffer.from(text, 'utf8').toString('base64url') !== value) throw badRequest(INVALID_CURSOR);
  const [version, domainId = '', at = '', id = '', sum, ...rest] = text.split('|');
  if (version !== VERSION || rest.length > 0 || sum !== check(`${version}|${domainId}|${at}|${id}`) || !DOMAIN_ID.test(domainId) || Number(domainId) > 2_147_483_647 || !UUID.test(id)) throw badRequest(INVALID_CURSOR);
  if (!AT.test(at)) throw badRequest(INVALID_CURSOR);
  // A real instant: the same fields read back from a Date (so no month 13 or 31 February), year 1970 on.
  const ms = `${at.slice(0, 23)}Z`;
  const time = Date.parse(ms);
  if (!Number.isFinite(time) || time < 0 || new Date(time).toISOString() !== ms) throw badRequest(INVALID_CURSOR);
  return { domainId: Number(domainId), at, id };
}
