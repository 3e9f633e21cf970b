/**
 * Typo suggestions for the domains most addresses use, in the manner of mailcheck.js: an exact match
 * is never a typo; otherwise the nearest popular domain by optimal-string-alignment distance (a
 * transposition such as gmial → gmail counts one edit) within a threshold, else a known misspelling
 * of a top-level domain (.con, .cmo ...) that is not itself a delegated TLD.
 */

/** Popular mailbox providers, most used first (ties go to the earlier one). */
export const POPULAR_DOMAINS = [
  'gmail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'icloud.com',
  'aol.com',
  'live.com',
  'msn.com',
  'googlemail.com',
  'protonmail.com',
  'proton.me',
  'me.com',
  'mac.com',
  'ymail.com',
  'rocketmail.com',
  'mail.com',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  'zoho.com',
  'yandex.com',
  'yandex.ru',
  'fastmail.com',
  'hey.com',
  'comcast.net',
  'verizon.net',
  'att.net',
  'sbcglobal.net',
  'btinternet.com',
  'yahoo.co.uk',
  'hotmail.co.uk',
  'yahoo.com.au',
  'bigpond.com',
  'optusnet.com.au',
  'shaw.ca',
  'rogers.com',
  'orange.fr',
  'free.fr',
  'libero.it',
  'qq.com',
  '163.com',
] as const;

const POPULAR = new Set<string>(POPULAR_DOMAINS);

/** Misspelt top-level domains that are not delegated, so the correction can never hide a real one. */
export const TLD_TYPOS: Readonly<Record<string, string>> = {
  con: 'com',
  cmo: 'com',
  cpm: 'com',
  vom: 'com',
  xom: 'com',
  cim: 'com',
  comm: 'com',
  coom: 'com',
  ocm: 'com',
  copm: 'com',
  nte: 'net',
  nett: 'net',
  ogr: 'org',
  rog: 'org',
  orgg: 'org',
};

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** Two edits are allowed against longer names only: short ones are too close to unrelated real domains. */
const threshold = (candidate: string) => (candidate.length >= 9 ? 2 : 1);

/** The domain the user probably meant, or null when the domain is not a likely typo. */
export function suggestDomain(domain: string): string | null {
  const name = domain.toLowerCase();
  if (POPULAR.has(name)) return null;

  let best: { domain: string; distance: number } | null = null;
  for (const candidate of POPULAR_DOMAINS) {
    const distance = editDistance(name, candidate);
    if (distance <= threshold(candidate) && (!best || distance < best.distance)) best = { domain: candidate, distance };
  }
  if (best) return best.domain;

  const dot = name.lastIndexOf('.');
  const fixedTld = TLD_TYPOS[name.slice(dot + 1)];
  if (dot > 0 && fixedTld) return `${name.slice(0, dot)}.${fixedTld}`;
  return null;
}
