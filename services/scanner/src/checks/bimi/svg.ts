import { SaxesParser, type SaxesTagNS } from 'saxes';

/**
 * The logo as receivers validate it (draft-brand-indicators-for-message-identification §7.6): a
 * well-formed SVG document in the SVG Tiny Portable/Secure profile (draft-svg-tiny-ps-abrotman §2),
 * as the BIMI Group's logo guidance sums it up: root `<svg version="1.2" baseProfile="tiny-ps">`
 * with a `<title>`, no `x=`/`y=` on the root, a square shape, and nothing that runs, moves, loads or
 * embeds: no scripts or event handlers, no animation, no raster `<image>`, no references outside the
 * document. Parsed with saxes (a strict, non-validating XML 1.0 parser that expands no custom
 * entities), so a document that is not well-formed is reported as such instead of guessed at.
 */

export const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

export type SvgRule =
  | 'document'
  | 'profile'
  | 'version'
  | 'title'
  | 'root-position'
  | 'square'
  | 'script'
  | 'external-reference'
  | 'animation'
  | 'raster-image'
  | 'forbidden-element';

export interface SvgViolation {
  rule: SvgRule;
  severity: 'error' | 'warning';
  /** In words, e.g. 'baseProfile is "tiny" instead of "tiny-ps"'. */
  message: string;
}

export interface SvgReport {
  /** `baseProfile` of the root element as published (null when absent). */
  profile: string | null;
  version: string | null;
  /** From the viewBox, else the width and height attributes; null when neither gives numbers. */
  width: number | null;
  height: number | null;
  square: boolean | null;
  title: string | null;
  violations: SvgViolation[];
}

/**
 * Deeper nesting is refused: saxes resolves namespaces through one scope per open element, so each
 * element costs its depth and a document of nothing but nesting is quadratic (16K levels: 3 s). A
 * logo nests a handful of groups.
 */
export const MAX_SVG_DEPTH = 64;

/** Thrown from the parser's handlers to stop at the first error or at the depth cap. */
class StopParsing extends Error {}

const ANIMATION = new Set(['animate', 'animateColor', 'animateMotion', 'animateTransform', 'set', 'discard']);
/** Interactive or embedding elements outside the profile (links, external documents, media, handlers). */
const FORBIDDEN = new Set(['a', 'animation', 'audio', 'foreignObject', 'handler', 'iframe', 'listener', 'prefetch', 'video']);

/** Collects each rule's offenders so one rule gives one violation, naming what broke it. */
class Offences {
  private readonly byRule = new Map<SvgRule, Set<string>>();
  add(rule: SvgRule, what: string): void {
    const set = this.byRule.get(rule) ?? new Set<string>();
    set.add(what);
    this.byRule.set(rule, set);
  }
  list(): Array<[SvgRule, string[]]> {
    return [...this.byRule.entries()].map(([rule, set]) => [rule, [...set]]);
  }
}

function number(value: string | undefined): number | null {
  if (value === undefined) return null;
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)(?:px)?\s*$/.exec(value);
  return match ? Number(match[1]) : null;
}

function dimensions(attributes: Record<string, string>): { width: number | null; height: number | null } {
  const viewBox = attributes['viewBox'];
  if (viewBox !== undefined) {
    const parts = viewBox.trim().split(/[\s,]+/).map(Number);
    if (parts.length === 4 && parts.every(Number.isFinite)) return { width: parts[2] as number, height: parts[3] as number };
  }
  return { width: number(attributes['width']), height: number(attributes['height']) };
}

/** A reference that leaves the document: anything but a same-document "#id" fragment. */
function isExternal(reference: string): boolean {
  return !reference.trim().startsWith('#');
}

/** The attributes without a namespace, by local name (what SVG's own attributes are). */
function plainAttributes(tag: SaxesTagNS): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const attribute of Object.values(tag.attributes)) if (attribute.uri === '') plain[attribute.local] = attribute.value;
  return plain;
}

function inspectElement(tag: SaxesTagNS, offences: Offences): void {
  const name = tag.local;
  if (name === 'script') offences.add('script', '<script>');
  if (ANIMATION.has(name)) offences.add('animation', `<${name}>`);
  if (name === 'image') offences.add('raster-image', '<image>');
  if (FORBIDDEN.has(name)) offences.add('forbidden-element', `<${name}>`);
  for (const attribute of Object.values(tag.attributes)) {
    const { local, uri, value } = attribute;
    if (uri === '' && /^on/i.test(local)) offences.add('script', `the ${local}= event handler`);
    if (local === 'href' && (uri === '' || uri === XLINK_NS) && isExternal(value)) offences.add('external-reference', `${attribute.name}="${value.slice(0, 80)}"`);
    const url = /url\(\s*['"]?([^'")]*)/i.exec(value);
    if (url && isExternal(url[1] ?? '')) offences.add('external-reference', `url(${(url[1] ?? '').slice(0, 80)})`);
  }
}

function rootViolations(root: SaxesTagNS | null, violations: SvgViolation[]): Pick<SvgReport, 'profile' | 'version' | 'width' | 'height' | 'square'> {
  if (root === null || root.local !== 'svg' || root.uri !== SVG_NS) {
    const what = root === null ? 'no root element' : root.local === 'svg' ? 'an <svg> root outside the SVG namespace' : `the root element <${root.name}>`;
    violations.push({ rule: 'document', severity: 'error', message: `the document has ${what}, not <svg xmlns="${SVG_NS}">` });
    return { profile: null, version: null, width: null, height: null, square: null };
  }
  const attributes = plainAttributes(root);
  const profile = attributes['baseProfile'] ?? null;
  const version = attributes['version'] ?? null;
  if (profile !== 'tiny-ps') violations.push({ rule: 'profile', severity: 'error', message: profile === null ? 'the root <svg> has no baseProfile="tiny-ps"' : `baseProfile is "${profile}" instead of "tiny-ps"` });
  if (version !== '1.2') violations.push({ rule: 'version', severity: 'error', message: version === null ? 'the root <svg> has no version="1.2"' : `version is "${version}" instead of "1.2"` });
  const position = ['x', 'y'].filter((name) => attributes[name] !== undefined);
  if (position.length > 0) violations.push({ rule: 'root-position', severity: 'error', message: `the root <svg> has ${position.map((name) => `${name}=`).join(' and ')}, which the profile forbids` });
  const { width, height } = dimensions(attributes);
  const square = width === null || height === null ? null : width === height && width > 0;
  if (square === false) violations.push({ rule: 'square', severity: 'error', message: `the logo is ${width} × ${height}, not square` });
  if (square === null) violations.push({ rule: 'square', severity: 'warning', message: 'the root <svg> has no viewBox (nor a numeric width and height), so its shape is unknown' });
  return { profile, version, width, height, square };
}

const OFFENCE_WORDS: Record<SvgRule, string> = {
  document: 'the document',
  profile: 'the profile',
  version: 'the version',
  title: 'the title',
  'root-position': 'the root position',
  square: 'the shape',
  script: 'scripting is not allowed',
  'external-reference': 'references outside the document are not allowed',
  animation: 'animation is not allowed',
  'raster-image': 'embedded raster images are not allowed',
  'forbidden-element': 'interactive and embedding elements are not allowed',
};

/** Checks `text` (the logo decoded as UTF-8) against the profile. */
export function validateSvg(text: string): SvgReport {
  const violations: SvgViolation[] = [];
  const offences = new Offences();
  let root: SaxesTagNS | null = null;
  let depth = 0;
  let titleDepth: number | null = null;
  let title: string | null = null;
  let parseError: string | null = null;

  const parser = new SaxesParser({ xmlns: true });
  // The first error ends the parse: saxes would go on and build an Error for every later fault.
  parser.on('error', (error) => {
    parseError ??= `it is not well-formed XML (${error.message})`;
    throw new StopParsing();
  });
  parser.on('opentag', (tag) => {
    depth += 1;
    if (depth > MAX_SVG_DEPTH) {
      parseError = `its elements nest more than ${MAX_SVG_DEPTH} levels deep, far more than any logo`;
      throw new StopParsing();
    }
    if (depth === 1) root = tag;
    if (depth === 2 && title === null && tag.local === 'title' && tag.uri === SVG_NS) {
      titleDepth = depth;
      title = '';
    }
    inspectElement(tag, offences);
  });
  const addText = (chunk: string): void => {
    if (titleDepth !== null) title = `${title ?? ''}${chunk}`;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    if (titleDepth === depth) titleDepth = null;
    depth -= 1;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (!(error instanceof StopParsing)) parseError ??= `it is not well-formed XML (${error instanceof Error ? error.message : String(error)})`;
  }

  if (parseError !== null) {
    violations.push({ rule: 'document', severity: 'error', message: parseError });
    return { profile: null, version: null, width: null, height: null, square: null, title: null, violations };
  }
  const shape = rootViolations(root, violations);
  const cleanTitle = (title as string | null)?.trim() ?? null;
  if (!cleanTitle) violations.push({ rule: 'title', severity: 'error', message: title === null ? 'the root <svg> has no <title> element' : 'the <title> element is empty' });
  for (const [rule, what] of offences.list()) {
    violations.push({ rule, severity: 'error', message: `${OFFENCE_WORDS[rule]}, but it contains ${what.slice(0, 5).join(', ')}${what.length > 5 ? ` and ${what.length - 5} more` : ''}` });
  }
  return { ...shape, title: cleanTitle || null, violations };
}
