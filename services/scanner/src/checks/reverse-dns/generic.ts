import type { SpfIp } from '../shared/ip.js';

/** Words of access-network naming schemes: an address handed to a subscriber, not a named mail server. */
const DYNAMIC_WORDS = new Set(['dynamic', 'dyn', 'dhcp', 'pool', 'dsl', 'adsl', 'vdsl', 'xdsl', 'sdsl', 'cable', 'dialup', 'dial', 'ppp', 'pppoe', 'broadband', 'residential']);

/**
 * Whether a PTR name looks generic (assigned by an access provider to every address of a range):
 * it spells the address out ("192-0-2-10", "10.2.0.192", "c000020a", the IPv6 interface identifier)
 * or carries a dynamic-pool word ("dsl", "pool", "dhcp" …). Such names are what receivers penalise.
 */
export function looksGeneric(name: string, ip: SpfIp): boolean {
  const lower = name.toLowerCase();
  const words = lower.split(/[^a-z]+/).filter((word) => word !== '');
  if (words.some((word) => DYNAMIC_WORDS.has(word))) return true;
  return ip.version === 4 ? spellsV4(lower, ip.v4) : spellsV6(lower, ip.words);
}

function spellsV4(name: string, value: number): boolean {
  const octets = [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
  const numbers = name.split(/\D+/).filter((part) => part !== '').map(Number);
  const reversed = [...octets].reverse();
  for (let i = 0; i + 4 <= numbers.length; i++) {
    const window = numbers.slice(i, i + 4);
    if (window.every((n, k) => n === octets[k]) || window.every((n, k) => n === reversed[k])) return true;
  }
  // The address in hex, e.g. "c000020a" for 192.0.2.10.
  return name.includes((value >>> 0).toString(16).padStart(8, '0'));
}

function spellsV6(name: string, words: Uint16Array): boolean {
  const nibbles = [...words].map((word) => word.toString(16).padStart(4, '0')).join('');
  const hexOnly = name.replace(/[^0-9a-f]/g, '');
  // The interface identifier (low 64 bits) spelled out, in any separator style.
  const low = nibbles.slice(16);
  return /[1-9a-f]/.test(low) && hexOnly.includes(low);
}
