/**
 * Block lists reached with a key: a paid or registered service puts the customer's key in the zone
 * name (Spamhaus DQS: `<key>.zen.dq.spamhaus.net`), so the name queried is a secret. The key lives in
 * the query zone only; everything shown, stored, logged or counted names the list by its display
 * name and by its zone with the key replaced (`<redacted>.zen.dq.spamhaus.net`), which is also the
 * list's stable id: rotating the key changes no alert's condition key and no registry entry.
 */

/** What stands for the key wherever the zone is shown. */
export const REDACTED_KEY = '<redacted>';

/** A configured zone, split into the list's public zone and the key put in front of it (null without one). */
export interface KeyedZone {
  zone: string;
  key: string | null;
}

/** The key is one DNS label: a letter or digit, then letters, digits and hyphens (RFC 1035 §2.3.1). */
const KEY_LABEL = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * Splits a configured zone (lower-case, without the trailing dot): `key@zone` names its key
 * explicitly; `key.zone` is read as one when `zone` is a list the catalogue knows to need a key
 * (`keyedZones`). Throws, without echoing the key, when a keyed list has none or the key is not one label.
 */
export function splitQueryKey(configured: string, keyedZones: readonly string[]): KeyedZone {
  const at = configured.indexOf('@');
  if (at >= 0) {
    const zone = configured.slice(at + 1);
    if (zone === '') throw new Error('a block list zone must follow the key and its "@"');
    if (!KEY_LABEL.test(configured.slice(0, at))) throw new Error(`the key before "@${zone}" must be one DNS label (letters, digits, hyphens)`);
    return { zone, key: configured.slice(0, at) };
  }
  for (const keyed of keyedZones) {
    if (configured === keyed) throw new Error(`${keyed} is reached with a key: configure it as <key>.${keyed}`);
    if (!configured.endsWith(`.${keyed}`)) continue;
    const key = configured.slice(0, -keyed.length - 1);
    if (!KEY_LABEL.test(key)) throw new Error(`the key before "${keyed}" must be one DNS label (letters, digits, hyphens)`);
    return { zone: keyed, key };
  }
  return { zone: configured, key: null };
}

/** The zone as an administrator may see it: the key, if any, replaced by `<redacted>`. */
export function redactedZone({ zone, key }: KeyedZone): string {
  return key === null ? zone : `${REDACTED_KEY}.${zone}`;
}

/** The zone a DNS question goes to: the only place the key is written. */
export function queryZone({ zone, key }: KeyedZone): string {
  return key === null ? zone : `${key}.${zone}`;
}
