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

/** UTF-8 unless a UTF-16 byte order mark says otherwise (XML 1.0 §4.3.3); a UTF-8 BOM is dropped. */
export function decodeXml(bytes: Uint8Array): string {
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : null;
  return new TextDecoder(utf16 ?? 'utf-8').decode(bytes);
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
