import { getDomain, parse } from 'tldts';
import type { MailTestAnalysis } from '@sendwell/contracts';
import type { HtmlLink } from './html-walk.js';

export type LinkFacts = Omit<MailTestAnalysis['content']['links'][number], 'blocklisted'>;

/**
 * Public URL shorteners: a shortened link hides where it goes, and spammers use them to get past
 * domain block lists, so filters (SpamAssassin's URI_SHORTENER rules, Gmail) count them against a message.
 */
export const URL_SHORTENERS: ReadonlySet<string> = new Set([
  'bit.ly',
  'bitly.com',
  'tinyurl.com',
  't.co',
  'goo.gl',
  'ow.ly',
  'is.gd',
  'v.gd',
  'buff.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'tiny.cc',
  's.id',
  'rb.gy',
  't.ly',
  'bl.ink',
  'short.io',
  'tr.im',
  'lnkd.in',
  'shorte.st',
  'adf.ly',
  'qrco.de',
]);

const WHITESPACE = /\s/;

/** The facts of one link: where it goes, whether over plain http or a shortener, and whether its text shows another site. */
export function linkFacts(link: HtmlLink): LinkFacts | null {
  const scheme = link.href.slice(0, 8).toLowerCase();
  if (!scheme.startsWith('http://') && !scheme.startsWith('https://')) return null;
  const host = hostOf(link.href);
  const domain = host === null ? null : getDomain(host);
  return {
    href: link.href,
    host,
    text: link.text,
    plainHttp: scheme.startsWith('http://'),
    shortener: host !== null && (URL_SHORTENERS.has(host.replace(/^www\./, '')) || (domain !== null && URL_SHORTENERS.has(domain))),
    textMismatch: domain !== null && link.text !== null && shownDomainDiffers(link.text, domain),
  };
}

function hostOf(href: string): string | null {
  try {
    const hostname = new URL(href).hostname.toLowerCase();
    return hostname === '' ? null : hostname;
  } catch {
    return null;
  }
}

/**
 * Link text that is itself an address ("www.mybank.com", "https://mybank.com/login") and names
 * another registered domain than the link goes to: the classic phishing disguise. Text with blanks
 * or an "@" is prose or an e-mail address, and only names on the ICANN list count as domains.
 */
function shownDomainDiffers(text: string, targetDomain: string): boolean {
  const shown = text.trim();
  if (shown === '' || shown.length > 253 || WHITESPACE.test(shown) || shown.includes('@')) return false;
  const parsed = parse(shown);
  if (!parsed.isIcann || parsed.domain === null) return false;
  return parsed.domain.toLowerCase() !== targetDomain;
}
