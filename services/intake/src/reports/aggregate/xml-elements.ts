import { TextDecoder } from 'node:util';
import { SaxesParser } from 'saxes';
import type { ReportLimits } from '../limits.js';
import { ReportRefusal, refuse } from '../refusal.js';

/**
 * A streaming read of report XML into small element trees. saxes is a strict, non-validating XML 1.0
 * parser that expands no custom entities; a DOCTYPE is refused outright, so no entity (billion
 * laughs) or external DTD is ever in play. Depth and text are capped as they are read (saxes
 * resolves scopes per open element, so depth is what it is quadratic in). One repeated child of the
 * root (the aggregate report's <record>) is handed over as soon as it closes and never kept, so a
 * 200,000-record report never sits in memory as a tree.
 */
export interface XmlElement {
  /** Local name, lower-cased: receivers differ in prefixes and, rarely, case. */
  name: string;
  attributes: Record<string, string>;
  /** Text of a leaf element; elements with children keep none (it is only indentation). */
  text: string;
  children: XmlElement[];
}

export interface StreamedChild {
  name: string;
  onElement: (element: XmlElement) => void;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return (colon === -1 ? name : name.slice(colon + 1)).toLowerCase();
}

/**
 * The encoding the XML declaration names (`<?xml version="1.0" encoding="windows-1252"?>`), read from
 * the document's first bytes as ASCII: the declaration must come first, so a bounded prefix holds it,
 * and the pattern, anchored and bounded, runs in linear time.
 */
const DECLARATION_BYTES = 200;
const DECLARED_ENCODING = /^<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][\w.:-]{0,39})["']/;

/** A decoder for a declared single- or multi-byte ASCII-compatible encoding, or null to read UTF-8. */
function declaredDecoder(bytes: Uint8Array): TextDecoder | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, DECLARATION_BYTES)).toString('latin1');
  const label = DECLARED_ENCODING.exec(head)?.[1];
  if (label === undefined) return null;
  try {
    const decoder = new TextDecoder(label);
    // UTF-16 without a byte order mark is not what these ASCII bytes are (XML 1.0 §4.3.3).
    return decoder.encoding.startsWith('utf-16') ? null : decoder;
  } catch {
    return null; // a label this runtime does not know: read as UTF-8, as most reporters mean
  }
}

/**
 * UTF-16 by its byte order mark, UTF-8 by its mark or by default, or the encoding the XML declaration
 * names (XML 1.0 §4.3.3, Appendix F): a few receivers still send ISO-8859-1 or windows-1252, whose
 * accented reporter names UTF-8 would turn into replacement characters.
 */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  return (declaredDecoder(bytes) ?? new TextDecoder('utf-8')).decode(bytes);
}

function malformed(detail: string): never {
  refuse('MALFORMED_XML', `The report is not well-formed XML: ${detail}.`);
}

/** Parses `text` and returns the root element, with `streamed` children of the root passed on, not kept. */
export function readXmlElements(text: string, limits: ReportLimits, streamed: StreamedChild): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const hasChildren = new WeakSet<XmlElement>();
  const parser = new SaxesParser({ xmlns: false, position: true });

  parser.on('doctype', () => refuse('DTD_REFUSED', 'The report declares a DOCTYPE; report XML never needs one, and it can hide entity expansion attacks, so it was not read.'));
  // The first error ends the parse: saxes would go on and build an Error for every later fault.
  parser.on('error', (error) => malformed(error.message));
  parser.on('opentag', (tag) => {
    if (stack.length >= limits.xmlDepth) malformed(`elements nest more than ${limits.xmlDepth} levels deep`);
    const attributes: Record<string, string> = {};
    for (const [name, value] of Object.entries(tag.attributes)) {
      if (value.length > limits.xmlTextChars) malformed(`the attribute ${name} of <${tag.name}> is longer than ${limits.xmlTextChars} characters`);
      attributes[name] = value;
    }
    const element: XmlElement = { name: localName(tag.name), attributes, text: '', children: [] };
    const parent = stack.at(-1);
    if (parent) {
      parent.text = '';
      hasChildren.add(parent);
    }
    else root = element;
    stack.push(element);
  });
  const addText = (chunk: string): void => {
    const element = stack.at(-1);
    if (!element || hasChildren.has(element)) return;
    element.text += chunk;
    if (element.text.length > limits.xmlTextChars) malformed(`the text of <${element.name}> is longer than ${limits.xmlTextChars} characters`);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const element = stack.pop() as XmlElement;
    const parent = stack.at(-1);
    if (!parent) return;
    if (stack.length === 1 && element.name === streamed.name) streamed.onElement(element);
    else parent.children.push(element);
  });

  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof ReportRefusal) throw error;
    malformed(error instanceof Error ? error.message : String(error));
  }
  if (root === null) malformed('there is no root element');
  return root;
}
