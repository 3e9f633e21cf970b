import type { Resolver } from '../../dns/types.js';
import { dottedIp, inCidr, parseIp, readableIp, reverseName, sameIp, type SpfIp } from '../shared/ip.js';
import { fetchSpfRecord, isQueryableName, spfQuery, SpfTempError } from '../shared/spf-record/lookup.js';
import { expandMacro, MacroSyntaxError, parseMacroString, toQueryName, type MacroString, type MacroValues } from '../shared/spf-record/macro.js';
import { parseRecord, type Mechanism, type Qualifier, type SpfRecord } from '../shared/spf-record/parse.js';

/** RFC 7208 check_host() (§4): the result for one connecting IP and one identity. */

export type SpfResult = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'permerror' | 'temperror';

export interface CheckHostInput {
  /** The connecting client's address, IPv4 or IPv6. */
  ip: string;
  /** MAIL FROM; empty or absent for a null reverse-path, when the HELO identity is checked (§2.4). */
  sender?: string;
  helo?: string;
  /** The domain to check; by default the sender's domain (or the HELO name when there is no sender). */
  domain?: string;
  /** The receiving host, for the `r` macro in explanations (default "unknown"). */
  receiver?: string;
  /** Evaluation time, for the `t` macro (default now). */
  now?: Date;
}

export interface CheckHostResult {
  result: SpfResult;
  /** The `exp=` text on fail when it resolves (§6.2), else a plain description of the result. */
  explanation: string;
  /** DNS-querying terms evaluated (§4.6.4). */
  lookups: number;
  voidLookups: number;
}

export const MAX_DNS_LOOKUPS = 10;
export const MAX_VOID_LOOKUPS = 2;
/** Per mx mechanism (MX names) and per ptr (PTR names checked), §4.6.4. */
export const MAX_NAMES_PER_LOOKUP = 10;

export class SpfPermError extends Error {
  override name = 'SpfPermError';
}

interface State {
  resolver: Resolver;
  ip: SpfIp;
  values: MacroValues;
  lookups: number;
  voids: number;
  /** PTR names of the IP that resolve back to it, computed once (ptr mechanism, %{p}). */
  validated: string[] | null;
}

const QUALIFIER_RESULT: Record<Qualifier, SpfResult> = { '+': 'pass', '-': 'fail', '~': 'softfail', '?': 'neutral' };

function countLookup(state: State, term: string): void {
  state.lookups++;
  if (state.lookups > MAX_DNS_LOOKUPS) {
    throw new SpfPermError(`more than ${MAX_DNS_LOOKUPS} DNS lookups (at "${term}", RFC 7208 §4.6.4)`);
  }
}

function noteVoid(state: State, answer: { void: boolean }, term: string): void {
  if (!answer.void) return;
  state.voids++;
  if (state.voids > MAX_VOID_LOOKUPS) {
    throw new SpfPermError(`more than ${MAX_VOID_LOOKUPS} void DNS lookups (at "${term}", RFC 7208 §4.6.4)`);
  }
}

function normaliseName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

async function validatedNames(state: State, countVoid: string | null): Promise<string[]> {
  if (state.validated) return state.validated;
  let names: string[] = [];
  try {
    const answer = await spfQuery(state.resolver, reverseName(state.ip), 'PTR');
    if (countVoid !== null) noteVoid(state, answer, countVoid);
    names = answer.answers.slice(0, MAX_NAMES_PER_LOOKUP);
  } catch (error) {
    // A DNS error on the PTR lookup makes ptr not match (§5.5); %{p} becomes "unknown" (§7.3).
    if (!(error instanceof SpfTempError)) throw error;
  }
  const type = state.ip.version === 4 ? 'A' : 'AAAA';
  const checks = await Promise.all(
    names.map(async (name) => {
      try {
        const { answers } = await spfQuery(state.resolver, normaliseName(name), type);
        return answers.some((address) => {
          const parsed = parseIp(address);
          return parsed !== null && sameIp(parsed, state.ip);
        });
      } catch (error) {
        if (error instanceof SpfTempError) return false;
        throw error;
      }
    }),
  );
  state.validated = names.filter((_, index) => checks[index]).map(normaliseName);
  return state.validated;
}

async function expandDomain(state: State, macro: MacroString, domain: string): Promise<string> {
  state.values.d = domain;
  if (macro.letters.has('p')) {
    const names = await validatedNames(state, null);
    const inDomain = names.find((name) => name === domain || name.endsWith(`.${domain}`));
    state.values.p = inDomain ?? names[0] ?? 'unknown';
    state.values.d = domain;
  }
  return normaliseName(toQueryName(expandMacro(macro, state.values)));
}

async function addressMatch(state: State, name: string, mechanism: Mechanism, countVoid: boolean): Promise<boolean> {
  const type = state.ip.version === 4 ? 'A' : 'AAAA';
  const answer = await spfQuery(state.resolver, name, type);
  if (countVoid) noteVoid(state, answer, mechanism.raw);
  const prefix = state.ip.version === 4 ? mechanism.cidr4 : mechanism.cidr6;
  for (const address of answer.answers) {
    const parsed = parseIp(address);
    if (parsed && inCidr(state.ip, parsed, prefix)) return true;
  }
  return false;
}

async function matches(state: State, mechanism: Mechanism, domain: string, stack: string[]): Promise<boolean> {
  switch (mechanism.name) {
    case 'all':
      return true;
    case 'ip4':
    case 'ip6': {
      const network = mechanism.network;
      if (!network || network.version !== state.ip.version) return false;
      return inCidr(state.ip, network, network.version === 4 ? mechanism.cidr4 : mechanism.cidr6);
    }
    case 'include': {
      countLookup(state, mechanism.raw);
      const target = await expandDomain(state, mechanism.domainSpec as MacroString, domain);
      if (stack.includes(target)) throw new SpfPermError(`include loop: ${[...stack, target].join(' → ')}`);
      const inner = await evaluate(state, target, [...stack, target], false);
      // §5.2: pass matches; fail, softfail and neutral do not; none is a permerror.
      if (inner.result === 'none') throw new SpfPermError(`"${mechanism.raw}": ${target} has no SPF record (RFC 7208 §5.2)`);
      return inner.result === 'pass';
    }
    case 'a': {
      countLookup(state, mechanism.raw);
      const target = mechanism.domainSpec ? await expandDomain(state, mechanism.domainSpec, domain) : domain;
      return addressMatch(state, target, mechanism, true);
    }
    case 'mx': {
      countLookup(state, mechanism.raw);
      const target = mechanism.domainSpec ? await expandDomain(state, mechanism.domainSpec, domain) : domain;
      const answer = await spfQuery(state.resolver, target, 'MX');
      noteVoid(state, answer, mechanism.raw);
      const exchanges = answer.answers.map((mx) => normaliseName(mx.exchange)).filter((name) => name !== '');
      if (exchanges.length > MAX_NAMES_PER_LOOKUP) {
        throw new SpfPermError(`"${mechanism.raw}": ${target} has ${exchanges.length} MX names, more than ${MAX_NAMES_PER_LOOKUP} (RFC 7208 §4.6.4)`);
      }
      const found = await Promise.all(exchanges.map((name) => addressMatch(state, name, mechanism, false)));
      return found.includes(true);
    }
    case 'ptr': {
      countLookup(state, mechanism.raw);
      const target = mechanism.domainSpec ? await expandDomain(state, mechanism.domainSpec, domain) : domain;
      const names = await validatedNames(state, mechanism.raw);
      return names.some((name) => name === target || name.endsWith(`.${target}`));
    }
    case 'exists': {
      countLookup(state, mechanism.raw);
      const target = await expandDomain(state, mechanism.domainSpec as MacroString, domain);
      // Always an A query, whatever the connection's family (§5.7).
      const answer = await spfQuery(state.resolver, target, 'A');
      noteVoid(state, answer, mechanism.raw);
      return answer.answers.length > 0;
    }
  }
}

interface Outcome {
  result: SpfResult;
  /** The exp= text, when the fail came from a mechanism of a record with a resolvable exp=. */
  explanation: string | null;
}

async function explain(state: State, record: SpfRecord, domain: string): Promise<string | null> {
  if (!record.exp) return null;
  try {
    const target = await expandDomain(state, record.exp.value, domain);
    const answer = await spfQuery(state.resolver, target, 'TXT');
    // §6.2: anything but exactly one TXT record, or bad macro syntax, means "as if no exp".
    if (answer.answers.length !== 1) return null;
    const macro = parseMacroString(answer.answers[0] ?? '', true);
    if (macro.letters.has('p')) await expandDomain(state, { parts: [], letters: new Set(['p']) }, domain);
    state.values.d = domain;
    return expandMacro(macro, state.values);
  } catch (error) {
    if (error instanceof SpfTempError || error instanceof MacroSyntaxError || error instanceof SpfPermError) return null;
    throw error;
  }
}

async function evaluate(state: State, domain: string, stack: string[], wantExplanation: boolean): Promise<Outcome> {
  const lookup = await fetchSpfRecord(state.resolver, domain);
  if (lookup.kind === 'none') return { result: 'none', explanation: null };
  if (lookup.kind === 'multiple') throw new SpfPermError(`${domain} has ${lookup.records.length} SPF records (RFC 7208 §4.5)`);
  const parsed = parseRecord(lookup.text);
  if (!parsed.ok) throw new SpfPermError(`syntax error in the SPF record of ${domain} at "${parsed.problem.term}": ${parsed.problem.message}`);
  const record = parsed.record;
  for (const mechanism of record.mechanisms) {
    if (await matches(state, mechanism, domain, stack)) {
      const result = QUALIFIER_RESULT[mechanism.qualifier];
      const explanation = result === 'fail' && wantExplanation ? await explain(state, record, domain) : null;
      return { result, explanation };
    }
  }
  if (record.redirect && !record.hasAll) {
    countLookup(state, record.redirect.raw);
    const target = await expandDomain(state, record.redirect.value, domain);
    if (stack.includes(target)) throw new SpfPermError(`redirect loop: ${[...stack, target].join(' → ')}`);
    // The redirected domain's exp= applies, never this record's (§6.2).
    const inner = await evaluate(state, target, [...stack, target], wantExplanation);
    if (inner.result === 'none') throw new SpfPermError(`"${record.redirect.raw}": ${target} has no SPF record (RFC 7208 §6.1)`);
    return inner;
  }
  return { result: 'neutral', explanation: null };
}

function describe(result: SpfResult, ip: string, domain: string): string {
  switch (result) {
    case 'pass':
      return `${domain} designates ${ip} as a permitted sender`;
    case 'fail':
      return `${domain} does not designate ${ip} as a permitted sender`;
    case 'softfail':
      return `${domain} does not designate ${ip} as a permitted sender, but asks for the mail to be accepted and marked (softfail)`;
    case 'neutral':
      return `${domain} makes no assertion about ${ip}`;
    case 'none':
      return `${domain} has no SPF record`;
    default:
      return `${domain}: ${result}`;
  }
}

/**
 * RFC 7208 check_host(): the sender's domain (local-part "postmaster" when empty), or the HELO name
 * when the sender is empty (§2.4). Throws TypeError when `ip` is not an address.
 */
export async function checkHost(input: CheckHostInput, resolver: Resolver): Promise<CheckHostResult> {
  const ip = parseIp(input.ip.trim());
  if (!ip) throw new TypeError(`"${input.ip}" is not an IP address`);
  const helo = normaliseName(input.helo?.trim() ?? '');
  let sender = input.sender?.trim() ?? '';
  if (sender.startsWith('<') && sender.endsWith('>')) sender = sender.slice(1, -1);
  if (sender === '') sender = `postmaster@${helo}`;
  const at = sender.lastIndexOf('@');
  const localPart = at > 0 ? sender.slice(0, at) : 'postmaster';
  const senderDomain = normaliseName(at >= 0 ? sender.slice(at + 1) : sender);
  const domain = normaliseName(input.domain ?? senderDomain);

  const state: State = {
    resolver,
    ip,
    values: {
      s: `${localPart}@${senderDomain}`,
      l: localPart,
      o: senderDomain,
      d: domain,
      i: dottedIp(ip),
      p: 'unknown',
      v: ip.version === 4 ? 'in-addr' : 'ip6',
      h: helo || 'unknown',
      c: readableIp(ip),
      r: input.receiver ?? 'unknown',
      t: String(Math.floor((input.now ?? new Date()).getTime() / 1000)),
    },
    lookups: 0,
    voids: 0,
    validated: null,
  };
  const done = (result: SpfResult, explanation: string): CheckHostResult => ({
    result,
    explanation,
    lookups: state.lookups,
    voidLookups: state.voids,
  });

  // §4.3: a malformed or single-label domain has no SPF record to find.
  if (!isQueryableName(domain) || !domain.includes('.')) return done('none', `"${domain}" is not a valid multi-label domain name`);
  try {
    const outcome = await evaluate(state, domain, [domain], true);
    return done(outcome.result, outcome.explanation ?? describe(outcome.result, state.values.c, domain));
  } catch (error) {
    if (error instanceof SpfPermError) return done('permerror', error.message);
    if (error instanceof SpfTempError) return done('temperror', error.message);
    throw error;
  }
}
