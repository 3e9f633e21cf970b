import { isRecordTooLarge, MAX_TXT_RECORD_CHARS } from '../../input-caps.js';
import { MacroSyntaxError, parseMacroString, type MacroString } from './macro.js';
import { parseIp, type SpfIp } from '../ip.js';

/** The SPF record grammar of RFC 7208 §4.6 and §12. */

export type Qualifier = '+' | '-' | '~' | '?';
export type MechanismName = 'all' | 'include' | 'a' | 'mx' | 'ptr' | 'ip4' | 'ip6' | 'exists';

export interface Mechanism {
  kind: 'mechanism';
  qualifier: Qualifier;
  name: MechanismName;
  /** The term as written. */
  raw: string;
  /** include, exists (required); a, mx, ptr (optional). */
  domainSpec: MacroString | null;
  /** ip4/ip6 network. */
  network: SpfIp | null;
  /** CIDR lengths: ip4 and a/mx IPv4 side (default 32), ip6 and a/mx IPv6 side (default 128). */
  cidr4: number;
  cidr6: number;
}

export interface Modifier {
  kind: 'modifier';
  name: string;
  raw: string;
  value: MacroString;
}

export interface SpfRecord {
  text: string;
  mechanisms: Mechanism[];
  redirect: Modifier | null;
  exp: Modifier | null;
  /** Modifiers other than redirect and exp, ignored by evaluation (§6). */
  unknownModifiers: Modifier[];
  /** Whether an `all` mechanism is present, which makes `redirect` ignored (§6.1). */
  hasAll: boolean;
}

export interface SpfSyntaxProblem {
  /** The offending term, or the whole record for version problems. */
  term: string;
  message: string;
  /** A finer code for the scan's finding (SPF_SYNTAX_ERROR unless more specific). */
  code: 'SPF_SYNTAX_ERROR' | 'SPF_DUPLICATE_MODIFIER' | 'SPF_RECORD_TOO_LARGE';
}

export type ParseResult = { ok: true; record: SpfRecord } | { ok: false; problem: SpfSyntaxProblem };

const MECHANISMS = new Set<string>(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);
const MODIFIER_NAME = /^[a-z][\w.-]*$/i;
const CIDR_TAIL = /(?:\/(0|[1-9]\d{0,2}))?(?:\/\/(0|[1-9]\d{0,2}))?$/;
const TOPLABEL = /^(?:\d*[A-Z][\dA-Z]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])$/i;

/** Whether a TXT string is an SPF record: "v=spf1" followed by a space or the end (§4.5). */
export function isSpfRecord(txt: string): boolean {
  if (txt.length < 6) return false;
  if (txt.slice(0, 6).toLowerCase() !== 'v=spf1') return false;
  return txt.length === 6 || txt[6] === ' ';
}

class TermError extends Error {
  constructor(
    message: string,
    readonly code: SpfSyntaxProblem['code'] = 'SPF_SYNTAX_ERROR',
  ) {
    super(message);
  }
}

/** domain-spec = macro-string domain-end; domain-end = ( "." toplabel [ "." ] ) / macro-expand (§7.1). */
function parseDomainSpec(text: string): MacroString {
  if (text === '') throw new TermError('the domain is empty');
  let macro: MacroString;
  try {
    macro = parseMacroString(text);
  } catch (error) {
    if (error instanceof MacroSyntaxError) throw new TermError(error.message);
    throw error;
  }
  const last = macro.parts[macro.parts.length - 1];
  if (typeof last === 'string') {
    const trimmed = last.endsWith('.') ? last.slice(0, -1) : last;
    const dot = trimmed.lastIndexOf('.');
    // A literal tail must be ".toplabel"; a macro right before it supplies the dot's left side.
    const top = dot >= 0 ? trimmed.slice(dot + 1) : null;
    if (top === null || !TOPLABEL.test(top)) {
      throw new TermError(`"${text}" does not end in a valid top-level label (RFC 7208 §7.1 domain-end)`);
    }
  }
  return macro;
}

function parseCidr(value: string | undefined, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (n > max) throw new TermError(`CIDR length /${value} is larger than ${max}`);
  return n;
}

function parseMechanism(term: string): Mechanism {
  let qualifier: Qualifier = '+';
  let body = term;
  const first = term[0];
  if (first === '+' || first === '-' || first === '~' || first === '?') {
    qualifier = first;
    body = term.slice(1);
  }
  let nameEnd = body.length;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === ':' || c === '/') {
      nameEnd = i;
      break;
    }
  }
  const name = body.slice(0, nameEnd).toLowerCase();
  if (!MECHANISMS.has(name)) throw new TermError(`unknown mechanism "${body.slice(0, nameEnd)}"`);
  const rest = body.slice(nameEnd);
  const mechanism: Mechanism = {
    kind: 'mechanism',
    qualifier,
    name: name as MechanismName,
    raw: term,
    domainSpec: null,
    network: null,
    cidr4: 32,
    cidr6: 128,
  };
  switch (mechanism.name) {
    case 'all':
      if (rest !== '') throw new TermError('"all" takes no argument');
      return mechanism;
    case 'include':
    case 'exists':
      if (!rest.startsWith(':')) throw new TermError(`"${name}" needs ":domain"`);
      mechanism.domainSpec = parseDomainSpec(rest.slice(1));
      return mechanism;
    case 'ptr':
      if (rest === '') return mechanism;
      if (!rest.startsWith(':')) throw new TermError('"ptr" takes only ":domain"');
      mechanism.domainSpec = parseDomainSpec(rest.slice(1));
      return mechanism;
    case 'a':
    case 'mx': {
      const cidr = CIDR_TAIL.exec(rest);
      const cidrText = cidr?.[0] ?? '';
      const spec = rest.slice(0, rest.length - cidrText.length);
      mechanism.cidr4 = parseCidr(cidr?.[1], 32, 32);
      mechanism.cidr6 = parseCidr(cidr?.[2], 128, 128);
      if (spec === '') return mechanism;
      if (!spec.startsWith(':')) throw new TermError(`bad CIDR length in "${term}"`);
      mechanism.domainSpec = parseDomainSpec(spec.slice(1));
      return mechanism;
    }
    case 'ip4':
    case 'ip6': {
      if (!rest.startsWith(':')) throw new TermError(`"${name}" needs ":address"`);
      const slash = rest.indexOf('/');
      const address = slash < 0 ? rest.slice(1) : rest.slice(1, slash);
      const version = name === 'ip4' ? 4 : 6;
      const ip = parseIp(address);
      // An IPv4-mapped address in ip6: stays a v6 network for matching purposes only if written as v6;
      // parseIp folds it to v4, which is the connection's family too, so matching stays consistent.
      if (!ip || (version === 4 && !/^\d+\.\d+\.\d+\.\d+$/.test(address)) || (version === 6 && !address.includes(':'))) {
        throw new TermError(`"${address}" is not an IPv${version} address`);
      }
      mechanism.network = ip;
      const max = version === 4 ? 32 : 128;
      let prefix = max;
      if (slash >= 0) {
        const len = rest.slice(slash + 1);
        if (!/^(?:0|[1-9]\d{0,2})$/.test(len)) throw new TermError(`bad CIDR length "/${len}"`);
        prefix = parseCidr(len, max, max);
      }
      if (ip.version === 4 && version === 6) prefix = Math.max(0, prefix - 96);
      if (ip.version === 4) mechanism.cidr4 = prefix;
      else mechanism.cidr6 = prefix;
      return mechanism;
    }
  }
}

/** Parses a record already known to start with "v=spf1" (§4.6); every term is checked before any is used. */
export function parseRecord(text: string): ParseResult {
  if (!isSpfRecord(text)) {
    return { ok: false, problem: { term: text, message: 'the record does not start with "v=spf1"', code: 'SPF_SYNTAX_ERROR' } };
  }
  if (isRecordTooLarge(text)) {
    const message = `the record is ${text.length} characters long, more than the ${MAX_TXT_RECORD_CHARS} the scanner reads`;
    return { ok: false, problem: { term: `${text.slice(0, 40)}…`, message, code: 'SPF_RECORD_TOO_LARGE' } };
  }
  const record: SpfRecord = { text, mechanisms: [], redirect: null, exp: null, unknownModifiers: [], hasAll: false };
  const terms = text.slice(6).split(' ');
  for (const term of terms) {
    if (term === '') continue;
    try {
      const eq = term.indexOf('=');
      const colon = term.indexOf(':');
      const slash = term.indexOf('/');
      const isModifier = eq > 0 && (colon < 0 || eq < colon) && (slash < 0 || eq < slash) && MODIFIER_NAME.test(term.slice(0, eq));
      if (isModifier) {
        const name = term.slice(0, eq).toLowerCase();
        const valueText = term.slice(eq + 1);
        if (name === 'redirect' || name === 'exp') {
          if (record[name]) throw new TermError(`"${name}=" appears more than once (RFC 7208 §6)`, 'SPF_DUPLICATE_MODIFIER');
          record[name] = { kind: 'modifier', name, raw: term, value: parseDomainSpec(valueText) };
        } else {
          let value: MacroString;
          try {
            value = parseMacroString(valueText);
          } catch (error) {
            if (error instanceof MacroSyntaxError) throw new TermError(error.message);
            throw error;
          }
          record.unknownModifiers.push({ kind: 'modifier', name, raw: term, value });
        }
        continue;
      }
      const mechanism = parseMechanism(term);
      if (mechanism.name === 'all') record.hasAll = true;
      record.mechanisms.push(mechanism);
    } catch (error) {
      if (error instanceof TermError) return { ok: false, problem: { term, message: error.message, code: error.code } };
      throw error;
    }
  }
  return { ok: true, record };
}

const GLUED_TERM = /.(?:include:|ip4:|ip6:|exists:|redirect=|[-~?+]all$)/i;

/**
 * Whether a term looks like two terms run together, the mark of a record split into several TXT
 * character-strings without a space at the joint (the strings are concatenated as-is, RFC 7208 §3.3).
 */
export function looksGlued(term: string): boolean {
  return GLUED_TERM.test(term);
}
