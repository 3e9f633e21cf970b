import { Parser } from 'htmlparser2';

/** One `<a href>` of the HTML part, as written (href and visible text, both capped). */
export interface HtmlLink {
  href: string;
  /** The link's visible text, whitespace collapsed; null when it has none (an image link). */
  text: string | null;
}

export interface HtmlWalk {
  /** The first MAX_LINKS links; `linksFound` counts them all. */
  links: HtmlLink[];
  linksFound: number;
  images: number;
  /** Images without (or with an empty) alt text: nothing shows while images are blocked. */
  imagesWithoutAlt: number;
  /** Words of text a reader sees (script, style, head and title left out). */
  words: number;
}

/** Links kept per message: enough for any real newsletter, bounded for a hostile one. */
export const MAX_LINKS = 200;
/** Characters kept of an href or a link's text: a URL longer than this is no longer a link a reader checks. */
export const MAX_LINK_CHARS = 2048;

/**
 * Open elements at once before the walk stops: htmlparser2 keeps its element stack with unshift, so
 * unclosed tags cost quadratic time (100,000 nested <b> take half a second); real mail nests tables
 * a few dozen deep.
 */
export const MAX_OPEN_ELEMENTS = 1000;

/** Elements whose text is never shown in the message body. */
const HIDDEN_ELEMENTS = new Set(['script', 'style', 'head', 'title', 'noscript', 'template']);
const BLANK_RUN = /\s+/g;

/**
 * Walks the HTML once with htmlparser2 (a streaming tokenizer, linear in its input): links, images and
 * the count of visible words. The caller caps the HTML first.
 */
export function walkHtml(html: string): HtmlWalk {
  const walk: HtmlWalk = { links: [], linksFound: 0, images: 0, imagesWithoutAlt: 0, words: 0 };
  let hiddenDepth = 0;
  // The open <a> whose text is being collected (nested anchors are invalid HTML: the inner one wins).
  let anchor: { href: string; text: string } | null = null;
  // Whether the last character of visible text seen was inside a word, so a word split across text chunks counts once.
  let inWord = false;
  let openElements = 0;

  const closeAnchor = () => {
    if (anchor === null) return;
    walk.linksFound++;
    if (walk.links.length < MAX_LINKS) {
      const text = anchor.text.replace(BLANK_RUN, ' ').trim();
      walk.links.push({ href: anchor.href, text: text === '' ? null : text.slice(0, MAX_LINK_CHARS) });
    }
    anchor = null;
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        // Void and implicitly closed elements get their onclosetag too, so this follows the parser's stack.
        if (++openElements > MAX_OPEN_ELEMENTS) parser.pause();
        if (HIDDEN_ELEMENTS.has(name)) hiddenDepth++;
        if (name === 'a' && attributes.href !== undefined) {
          closeAnchor();
          anchor = { href: attributes.href.trim().slice(0, MAX_LINK_CHARS), text: '' };
        } else if (name === 'img') {
          walk.images++;
          if ((attributes.alt ?? '').trim() === '') walk.imagesWithoutAlt++;
        }
        // Any tag ends a word (`<td>a</td><td>b</td>` is two); a word split by inline markup counts twice,
        // which errs towards more words, never towards calling a message image-only.
        inWord = false;
      },
      ontext(text) {
        if (hiddenDepth > 0) return;
        if (anchor !== null && anchor.text.length < MAX_LINK_CHARS) anchor.text += text.slice(0, MAX_LINK_CHARS - anchor.text.length);
        for (let i = 0; i < text.length; i++) {
          const isWordChar = !isBlank(text.charCodeAt(i));
          if (isWordChar && !inWord) walk.words++;
          inWord = isWordChar;
        }
      },
      onclosetag(name) {
        openElements--;
        if (HIDDEN_ELEMENTS.has(name) && hiddenDepth > 0) hiddenDepth--;
        if (name === 'a') closeAnchor();
        inWord = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  // A paused parser has stopped at the nesting limit: what it read so far is the walk.
  if (openElements <= MAX_OPEN_ELEMENTS) parser.end();
  closeAnchor();
  return walk;
}

/** Blanks between words: ASCII controls and space, no-break space, the Unicode spaces; by code, as this runs per character. */
function isBlank(code: number): boolean {
  return code <= 0x20 || code === 0xa0 || (code >= 0x2000 && code <= 0x200b) || code === 0x3000 || code === 0x202f || code === 0x205f || code === 0xfeff;
}
