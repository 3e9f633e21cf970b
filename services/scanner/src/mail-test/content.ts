import { getDomain } from 'tldts';
import type { MailTestAnalysis, MailTestFinding } from '@sendwell/contracts';
import { finding } from './finding.js';
import { listedLinkDomains, MAX_LINK_DOMAINS } from './message/link-blocklists.js';
import { linkFacts, type LinkFacts } from './message/link-facts.js';
import type { ParsedMessage } from './parse-message.js';
import type { AnalysisPart, MailTestAnalysisDeps } from './types.js';

type Content = MailTestAnalysis['content'];

/** Gmail shows "[Message clipped]" and hides the rest of an HTML body over 102 KB (the open pixel and footer with it). */
export const GMAIL_CLIP_BYTES = 102 * 1024;
/** Fewer visible words than this beside images, and the message is, to a filter, a picture. */
export const IMAGE_ONLY_MAX_WORDS = 25;

const group = 'content' as const;

/**
 * The body as a filter reads it: its parts, its links (plain http, shorteners, disguised targets,
 * domains on block lists), images against words, and size.
 */
export async function readContent(message: ParsedMessage, deps: Pick<MailTestAnalysisDeps, 'resolver' | 'blocklists'>): Promise<AnalysisPart<Content>> {
  const findings: MailTestFinding[] = [];
  const facts = linksOf(message);
  const listed = await listedLinkDomains(linkDomains(facts), deps);
  const links = facts.map((link) => ({ ...link, blocklisted: link.host !== null && listed.has(getDomain(link.host) ?? link.host) }));

  readParts(message, findings);
  readLinks(links, listed, findings);
  readImages(message, findings);
  if (message.htmlBytes > GMAIL_CLIP_BYTES) {
    findings.push(
      finding(group, {
        code: 'HTML_CLIPPED_BY_GMAIL',
        severity: 'warning',
        title: 'Gmail will clip this message',
        explanation: `The HTML part is ${Math.round(message.htmlBytes / 1024)} KB. Gmail hides everything after the first 102 KB behind "View entire message": readers miss your footer and unsubscribe link, and opens are not counted.`,
        fix: 'Keep the HTML under 100 KB: remove inline styles repeated on every element, comments and unused code, and link to content instead of embedding it.',
        reference: 'Gmail (message clipping at 102 KB)',
        points: 0.5,
      }),
    );
  }
  return {
    value: { sizeBytes: message.sizeBytes, textPart: message.hasTextPart, htmlPart: message.hasHtmlPart, links, images: message.html.images, htmlWords: message.html.words },
    findings,
  };
}

function linksOf(message: ParsedMessage): LinkFacts[] {
  const written = message.hasHtmlPart ? message.html.links : message.textLinks.map((href) => ({ href, text: null }));
  return written.map(linkFacts).filter((link): link is LinkFacts => link !== null);
}

/** The registered domains the links go to, each once, at most MAX_LINK_DOMAINS. */
function linkDomains(links: readonly LinkFacts[]): string[] {
  const domains = new Set<string>();
  for (const link of links) {
    const domain = link.host === null ? null : getDomain(link.host);
    if (domain !== null) domains.add(domain);
    if (domains.size >= MAX_LINK_DOMAINS) break;
  }
  return [...domains];
}

function readParts(message: ParsedMessage, findings: MailTestFinding[]): void {
  if (!message.hasTextPart && !message.hasHtmlPart) {
    findings.push(
      finding(group, {
        code: 'BODY_EMPTY',
        severity: 'warning',
        title: 'The message has no text',
        explanation: 'Neither a text nor an HTML part carries any content. An empty message (or one that is only an attachment) looks like a test or malware to filters.',
        fix: 'Send the content you mean to send as the body of the message.',
        reference: null,
        points: 1,
      }),
    );
  } else if (message.hasHtmlPart && !message.hasTextPart) {
    findings.push(
      finding(group, {
        code: 'HTML_WITHOUT_TEXT',
        severity: 'warning',
        title: 'HTML without a plain-text version',
        explanation: 'The message is HTML only. Filters score HTML-only mail as more likely spam, and readers with text-only mail clients or screen readers get nothing readable.',
        fix: 'Send multipart/alternative: a text/plain part with the same content beside the HTML. Most sending tools can generate it.',
        reference: 'RFC 2046 §5.1.4',
        points: 0.5,
      }),
    );
  }
}

function examples(hosts: Iterable<string>): string {
  return [...new Set(hosts)].slice(0, 5).join(', ');
}

function readLinks(links: Content['links'], listed: Map<string, string[]>, findings: MailTestFinding[]): void {
  const plain = links.filter((link) => link.plainHttp);
  if (plain.length > 0) {
    findings.push(
      finding(group, {
        code: 'PLAIN_HTTP_LINKS',
        severity: 'warning',
        title: `${plain.length} link${plain.length === 1 ? '' : 's'} without https`,
        explanation: `Links to ${examples(plain.flatMap((link) => (link.host ? [link.host] : [])))} use plain http. Browsers warn about such pages, and filters see unencrypted tracking links as a sign of careless or old sending software.`,
        fix: 'Link to https:// addresses, including your click-tracking domain (give it a certificate).',
        reference: null,
        points: 0.5,
      }),
    );
  }
  const shortened = links.filter((link) => link.shortener);
  if (shortened.length > 0) {
    findings.push(
      finding(group, {
        code: 'URL_SHORTENER',
        severity: 'warning',
        title: 'Links through a URL shortener',
        explanation: `Links go through ${examples(shortened.flatMap((link) => (link.host ? [link.host] : [])))}. Shorteners hide where a link goes and are widely used by spammers, so filters score them, and one abused short link can get your message blocked.`,
        fix: 'Link directly to your own domain, or use a tracking domain of your own instead of a public shortener.',
        reference: null,
        points: 1,
      }),
    );
  }
  const mismatched = links.filter((link) => link.textMismatch);
  if (mismatched.length > 0) {
    const first = mismatched[0] as Content['links'][number];
    findings.push(
      finding(group, {
        code: 'LINK_TEXT_MISMATCH',
        severity: 'error',
        title: 'Link text shows another address than the link goes to',
        explanation: `A link reads "${(first.text ?? '').slice(0, 100)}" but goes to ${first.host ?? 'another site'}${mismatched.length > 1 ? ` (and ${mismatched.length - 1} more)` : ''}. That is how phishing disguises its links, and filters treat it as such.`,
        fix: 'Show the address the link really goes to, or use words ("Read the article") as the link text instead of an address.',
        reference: null,
        points: 1.5,
      }),
    );
  }
  if (listed.size > 0) {
    const named = [...listed].map(([domain, lists]) => `${domain} (${lists.join(', ')})`).join('; ');
    findings.push(
      finding(group, {
        code: 'LINK_DOMAIN_BLOCKLISTED',
        severity: 'error',
        title: 'Links to a domain on a block list',
        explanation: `The message links to ${named}. Filters reject or spam-file any message that links to a listed domain, whoever sends it.`,
        fix: 'Remove the links to listed domains. If the domain is yours, find out why it was listed, fix that, and request removal from each list.',
        reference: 'RFC 5782 §2.2',
        points: 2,
      }),
    );
  }
}

function readImages(message: ParsedMessage, findings: MailTestFinding[]): void {
  const { images, imagesWithoutAlt, words } = message.html;
  if (message.hasHtmlPart && images > 0 && words < IMAGE_ONLY_MAX_WORDS) {
    findings.push(
      finding(group, {
        code: 'IMAGE_ONLY',
        severity: 'warning',
        title: 'The message is mostly images',
        explanation: `The HTML shows ${images} image${images === 1 ? '' : 's'} and only ${words} word${words === 1 ? '' : 's'} of text. Spam hides its text in images, so filters distrust mail like this, and readers whose mail client blocks images see an empty message.`,
        fix: 'Write the message as text, with images beside it, and give every image an alt text.',
        reference: null,
        points: 1,
      }),
    );
  }
  if (imagesWithoutAlt > 0) {
    findings.push(
      finding(group, {
        code: 'IMAGES_WITHOUT_ALT',
        severity: 'info',
        title: `${imagesWithoutAlt} image${imagesWithoutAlt === 1 ? '' : 's'} without alt text`,
        explanation: 'While images are blocked (the default in many mail clients) and for screen readers, the alt text is all that shows of an image.',
        fix: 'Give every image that carries content an alt attribute that says what it shows.',
        reference: null,
        points: 0,
      }),
    );
  }
}
