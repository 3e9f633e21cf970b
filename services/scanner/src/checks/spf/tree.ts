import type { Finding } from '@sendwell/contracts';
import type { Resolver } from '../../dns/types.js';
import { isOutsideDomain } from '../../dns/shared-cache.js';
import { recordTooLargeFinding } from '../input-caps.js';
import { MAX_NAMES_PER_LOOKUP } from './evaluate.js';
import { fetchSpfRecord, spfQuery, SpfTempError, type SpfRecordLookup } from '../shared/spf-record/lookup.js';
import { expandMacro, toQueryName, type MacroString, type MacroValues } from '../shared/spf-record/macro.js';
import type { SpfTreeNode } from './tree-node.js';
import { parseRecord, type Mechanism, type Qualifier, type SpfRecord, type SpfSyntaxProblem } from '../shared/spf-record/parse.js';
import {
  includedPassAllFinding,
  includeLoopFinding,
  ptrFinding,
  redirectIgnoredFinding,
  senderMacroFinding,
  syntaxErrorFinding,
  targetWithoutRecordFinding,
  targetWithSeveralRecordsFinding,
  termAfterAllFinding,
  tooManyMxNamesFinding,
  unknownModifierFinding,
  walkTruncatedFinding,
} from './tree-findings.js';

/**
 * The static walk behind the scan: without a connecting IP, follow every include and redirect, count
 * the DNS-querying terms the worst-case evaluation would spend (an IP that matches nothing), count
 * void lookups, resolve a/mx to addresses, and note every problem with the record it is in.
 */

export type { SpfTreeNode };

export interface FlattenedIp extends Record<string, unknown> {
  /** An address, or a network in CIDR notation. */
  ip: string;
  /** The domain whose record holds the term. */
  source: string;
  /** The term it came from (ip4, ip6, a or mx, as written). */
  term: string;
  mechanism: 'ip4' | 'ip6' | 'a' | 'mx';
  qualifier: Qualifier;
}

export interface VoidLookup {
  /** The domain whose record holds the term. */
  source: string;
  term: string;
  name: string;
  type: 'A' | 'A/AAAA' | 'MX';
}

export interface SpfWalk {
  root: SpfTreeNode;
  lookupCount: number;
  voidLookups: VoidLookup[];
  flattenedIps: FlattenedIp[];
  findings: Finding[];
  /** Some lookup timed out or failed temporarily, so the picture is incomplete. */
  temperror: boolean;
  /** The qualifier of the `all` that ends evaluation (after following redirects), or null. */
  finalAll: Qualifier | null;
}

/** Enough for any record that obeys the limits several times over, and a cap for those that don't. */
const MAX_WALK_QUERIES = 120;
const MAX_DEPTH = 12;

type Slot = TermSlot | { child: WalkNode };
/** What one term contributes, kept in term order so the output does not depend on which answer came first. */
interface TermSlot {
  ips: FlattenedIp[];
  voids: VoidLookup[];
}

interface WalkNode {
  node: SpfTreeNode;
  slots: Slot[];
  record: SpfRecord | null;
}

interface WalkContext {
  resolver: Resolver;
  rootDomain: string;
  queries: number;
  truncated: boolean;
  temperror: boolean;
  findings: Finding[];
}

/** Expands a domain-spec that uses only %{d} and %{o}; null when it depends on the sender, IP or HELO. */
function staticExpand(macro: MacroString, domain: string, rootDomain: string): string | null {
  for (const letter of macro.letters) if (letter !== 'd' && letter !== 'o') return null;
  const values = { d: domain, o: rootDomain } as MacroValues;
  const name = toQueryName(expandMacro(macro, values)).toLowerCase();
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

async function query<T extends 'A' | 'AAAA' | 'MX' | 'TXT'>(ctx: WalkContext, name: string, type: T) {
  if (ctx.queries >= MAX_WALK_QUERIES) {
    ctx.truncated = true;
    return null;
  }
  ctx.queries++;
  return spfQuery(ctx.resolver, name, type, isOutsideDomain(name, ctx.rootDomain));
}

function withCidr(address: string, mechanism: Mechanism): string {
  const v6 = address.includes(':');
  const prefix = v6 ? mechanism.cidr6 : mechanism.cidr4;
  return prefix === (v6 ? 128 : 32) ? address : `${address}/${prefix}`;
}

function markTemp(ctx: WalkContext, walk: WalkNode, error: SpfTempError): void {
  ctx.temperror = true;
  if (walk.node.error === null) {
    walk.node.error = `temporary DNS failure: ${error.message}`;
    walk.node.errorCode = 'SPF_DNS_TEMPERROR';
  }
}

async function addresses(ctx: WalkContext, name: string): Promise<{ list: string[]; void: boolean } | null> {
  const [a, aaaa] = await Promise.all([query(ctx, name, 'A'), query(ctx, name, 'AAAA')]);
  if (!a || !aaaa) return null;
  const list = [...a.answers, ...aaaa.answers];
  return { list, void: list.length === 0 };
}

/** An a, mx or exists term: its lookups, the addresses it authorises and its void lookups, into its slot. */
async function resolveTerm(ctx: WalkContext, walk: WalkNode, mechanism: Mechanism, target: string, slot: TermSlot): Promise<void> {
  try {
    if (mechanism.name === 'a') await resolveA(ctx, walk, mechanism, target, slot);
    else if (mechanism.name === 'mx') await resolveMx(ctx, walk, mechanism, target, slot);
    else if (mechanism.name === 'exists') await resolveExists(ctx, walk, mechanism, target, slot);
  } catch (error) {
    if (error instanceof SpfTempError) markTemp(ctx, walk, error);
    else throw error;
  }
}

function noteVoid(walk: WalkNode, mechanism: Mechanism, name: string, type: VoidLookup['type'], slot: TermSlot): void {
  walk.node.voidLookups++;
  slot.voids.push({ source: walk.node.domain, term: mechanism.raw, name, type });
}

function addAddresses(walk: WalkNode, mechanism: Mechanism, kind: 'a' | 'mx', list: string[], slot: TermSlot): void {
  for (const address of list) {
    slot.ips.push({ ip: withCidr(address, mechanism), source: walk.node.domain, term: mechanism.raw, mechanism: kind, qualifier: mechanism.qualifier });
  }
}

async function resolveA(ctx: WalkContext, walk: WalkNode, mechanism: Mechanism, target: string, slot: TermSlot): Promise<void> {
  const found = await addresses(ctx, target);
  if (!found) return;
  if (found.void) noteVoid(walk, mechanism, target, 'A/AAAA', slot);
  addAddresses(walk, mechanism, 'a', found.list, slot);
}

/** The MX hosts in priority order, at most MAX_NAMES_PER_LOOKUP of them resolved (RFC 7208 §4.6.4). */
async function resolveMx(ctx: WalkContext, walk: WalkNode, mechanism: Mechanism, target: string, slot: TermSlot): Promise<void> {
  const mx = await query(ctx, target, 'MX');
  if (!mx) return;
  if (mx.void) noteVoid(walk, mechanism, target, 'MX', slot);
  const names = mx.answers
    .slice()
    .sort((x, y) => x.priority - y.priority)
    .map((answer) => answer.exchange.toLowerCase().replace(/\.$/, ''))
    .filter((name) => name !== '');
  if (names.length > MAX_NAMES_PER_LOOKUP) ctx.findings.push(tooManyMxNamesFinding(walk.node.domain, mechanism, names.length));
  const resolved = await Promise.all(names.slice(0, MAX_NAMES_PER_LOOKUP).map((name) => addresses(ctx, name)));
  for (const found of resolved) addAddresses(walk, mechanism, 'mx', found?.list ?? [], slot);
}

async function resolveExists(ctx: WalkContext, walk: WalkNode, mechanism: Mechanism, target: string, slot: TermSlot): Promise<void> {
  const a = await query(ctx, target, 'A');
  if (a?.void) noteVoid(walk, mechanism, target, 'A', slot);
}

/** Fetches and walks the record an include or redirect points to. */
async function walkChild(ctx: WalkContext, walk: WalkNode, ancestors: string[]): Promise<void> {
  const node = walk.node;
  if (!mayFollow(ctx, node, ancestors)) return;
  let lookup: SpfRecordLookup;
  try {
    // An include or redirect target outside the domain (a provider's `_spf.google.com`) is shared.
    lookup = await fetchSpfRecord(ctx.resolver, node.domain, isOutsideDomain(node.domain, ctx.rootDomain));
  } catch (error) {
    if (error instanceof SpfTempError) return markTemp(ctx, walk, error);
    throw error;
  }
  if (lookup.kind === 'found') {
    node.record = lookup.text;
    await walkRecord(ctx, walk, ancestors);
  } else {
    noteUnusableTarget(ctx, node, lookup);
  }
}

/** Whether the walk may go one level deeper (and spend a query on it); if not, the node says why. */
function mayFollow(ctx: WalkContext, node: SpfTreeNode, ancestors: string[]): boolean {
  if (ancestors.length > MAX_DEPTH) {
    node.error = `includes nested deeper than ${MAX_DEPTH} levels; not followed`;
    node.errorCode = 'SPF_INCLUDE_TOO_DEEP';
    return false;
  }
  if (ctx.queries >= MAX_WALK_QUERIES) {
    ctx.truncated = true;
    node.error = 'not followed: the record tree is too large to walk';
    node.errorCode = 'SPF_WALK_TRUNCATED';
    return false;
  }
  ctx.queries++;
  return true;
}

/** An include or redirect target with no SPF record, or with several: a permanent error wherever evaluation reaches it. */
function noteUnusableTarget(ctx: WalkContext, node: SpfTreeNode, lookup: Exclude<SpfRecordLookup, { kind: 'found' }>): void {
  if (lookup.kind === 'none') {
    node.error = `${node.domain} has no SPF record`;
    node.errorCode = node.via === 'include' ? 'SPF_INCLUDE_NO_RECORD' : 'SPF_REDIRECT_NO_RECORD';
    ctx.findings.push(targetWithoutRecordFinding(node, node.errorCode));
    return;
  }
  node.error = `${node.domain} publishes ${lookup.records.length} SPF records`;
  node.errorCode = 'SPF_MULTIPLE_RECORDS';
  ctx.findings.push(targetWithSeveralRecordsFinding(node, lookup.records));
}

/** One record being walked: its place in the tree, the domains above it (to see loops), and the lookups it started. */
interface RecordWalk {
  ctx: WalkContext;
  walk: WalkNode;
  ancestors: string[];
  tasks: Array<Promise<void>>;
}

/** Parses the node's record, notes its problems, and walks its terms; the lookups of all its terms run at once. */
async function walkRecord(ctx: WalkContext, walk: WalkNode, ancestors: string[]): Promise<void> {
  const node = walk.node;
  const parsed = parseRecord(node.record ?? '');
  if (!parsed.ok) return noteSyntaxError(ctx, node, parsed.problem);
  const record = parsed.record;
  walk.record = record;
  const step: RecordWalk = { ctx, walk, ancestors, tasks: [] };
  walkMechanisms(step, record.mechanisms);
  for (const modifier of record.unknownModifiers) ctx.findings.push(unknownModifierFinding(node.domain, modifier));
  if (record.redirect && record.hasAll) ctx.findings.push(redirectIgnoredFinding(node.domain, record.redirect));
  else if (record.redirect) follow(step, 'redirect', record.redirect.raw, record.redirect.value);
  await Promise.all(step.tasks);
  node.totalLookups = node.lookups + node.children.reduce((sum, child) => sum + child.totalLookups, 0);
}

function noteSyntaxError(ctx: WalkContext, node: SpfTreeNode, problem: SpfSyntaxProblem): void {
  node.error = `syntax error at "${problem.term}": ${problem.message}`;
  node.errorCode = problem.code;
  const tooLarge = problem.code === 'SPF_RECORD_TOO_LARGE';
  ctx.findings.push(tooLarge ? recordTooLargeFinding('SPF_RECORD_TOO_LARGE', `SPF record of ${node.domain}`, node.record?.length ?? 0, 'RFC 7208 §3.4') : syntaxErrorFinding(node.domain, problem));
}

/** The mechanisms in order up to the first `all`; a term after it is noted and ends the walk of the record. */
function walkMechanisms(step: RecordWalk, mechanisms: Mechanism[]): void {
  let seenAll = false;
  for (const mechanism of mechanisms) {
    if (seenAll) {
      step.ctx.findings.push(termAfterAllFinding(step.walk.node.domain, mechanism));
      break;
    }
    seenAll = mechanism.name === 'all';
    walkMechanism(step, mechanism);
  }
}

function walkMechanism(step: RecordWalk, mechanism: Mechanism): void {
  const { ctx, walk } = step;
  const node = walk.node;
  switch (mechanism.name) {
    case 'all':
      if (mechanism.qualifier === '+' && node.via === 'include') ctx.findings.push(includedPassAllFinding(node, mechanism));
      break;
    case 'ip4':
    case 'ip6':
      addNetwork(walk, mechanism, mechanism.name);
      break;
    case 'include':
      follow(step, 'include', mechanism.raw, mechanism.domainSpec as MacroString);
      break;
    case 'ptr':
      node.lookups++;
      ctx.findings.push(ptrFinding(node.domain, mechanism));
      break;
    case 'a':
    case 'mx':
    case 'exists':
      startTermLookup(step, mechanism);
      break;
  }
}

/** An ip4 or ip6 term: the network it authorises, as written (a single address without its /32 or /128). */
function addNetwork(walk: WalkNode, mechanism: Mechanism, kind: 'ip4' | 'ip6'): void {
  const network = mechanism.network;
  if (!network) return;
  const prefix = network.version === 4 ? mechanism.cidr4 : mechanism.cidr6;
  const max = network.version === 4 ? 32 : 128;
  const ip = prefix === max ? network.text : `${network.text}/${prefix}`;
  walk.slots.push({ ips: [{ ip, source: walk.node.domain, term: mechanism.raw, mechanism: kind, qualifier: mechanism.qualifier }], voids: [] });
}

/** An a, mx or exists term: counted, and resolved into a slot kept in term order, unless its target depends on the sender. */
function startTermLookup(step: RecordWalk, mechanism: Mechanism): void {
  const { ctx, walk } = step;
  const domain = walk.node.domain;
  walk.node.lookups++;
  const target = mechanism.domainSpec ? staticExpand(mechanism.domainSpec, domain, ctx.rootDomain) : domain;
  if (target === null) return;
  const slot: TermSlot = { ips: [], voids: [] };
  walk.slots.push(slot);
  step.tasks.push(resolveTerm(ctx, walk, mechanism, target, slot));
}

/** An include or redirect: counted, and its target walked as a child unless it depends on the sender or loops. */
function follow(step: RecordWalk, via: 'include' | 'redirect', raw: string, macro: MacroString): void {
  const { ctx, walk, ancestors } = step;
  const node = walk.node;
  node.lookups++;
  const target = staticExpand(macro, node.domain, ctx.rootDomain);
  if (target === null) {
    ctx.findings.push(senderMacroFinding(node.domain, raw));
    return;
  }
  const child: WalkNode = {
    node: { domain: target, via, term: raw, record: null, lookups: 0, totalLookups: 0, voidLookups: 0, error: null, errorCode: null, children: [] },
    slots: [],
    record: null,
  };
  node.children.push(child.node);
  walk.slots.push({ child });
  const path = [...ancestors, target];
  if (ancestors.includes(target)) {
    child.node.error = `loop: ${path.join(' → ')}`;
    child.node.errorCode = 'SPF_INCLUDE_LOOP';
    ctx.findings.push(includeLoopFinding(node.domain, raw, path));
    return;
  }
  step.tasks.push(walkChild(ctx, child, path));
}

function collect(walk: WalkNode, out: FlattenedIp[], seen: Set<string>, voids: VoidLookup[]): void {
  for (const slot of walk.slots) {
    if ('child' in slot) {
      collect(slot.child, out, seen, voids);
      continue;
    }
    voids.push(...slot.voids);
    for (const entry of slot.ips) {
      // The first occurrence decides, as in evaluation order.
      if (seen.has(entry.ip)) continue;
      seen.add(entry.ip);
      out.push(entry);
    }
  }
}

function finalAll(walk: WalkNode): Qualifier | null {
  const record = walk.record;
  if (!record) return null;
  const all = record.mechanisms.find((mechanism) => mechanism.name === 'all');
  if (all) return all.qualifier;
  const redirect = walk.slots.find((slot): slot is { child: WalkNode } => 'child' in slot && slot.child.node.via === 'redirect');
  return redirect ? finalAll(redirect.child) : null;
}

/** Walks the record tree of `domain`, whose SPF record text is `record`. */
export async function walkSpf(resolver: Resolver, domain: string, record: string): Promise<SpfWalk> {
  const ctx: WalkContext = { resolver, rootDomain: domain, queries: 0, truncated: false, temperror: false, findings: [] };
  const root: WalkNode = {
    node: { domain, via: 'root', term: null, record, lookups: 0, totalLookups: 0, voidLookups: 0, error: null, errorCode: null, children: [] },
    slots: [],
    record: null,
  };
  await walkRecord(ctx, root, [domain]);
  if (ctx.truncated) ctx.findings.push(walkTruncatedFinding(MAX_WALK_QUERIES));
  const flattenedIps: FlattenedIp[] = [];
  const voidLookups: VoidLookup[] = [];
  collect(root, flattenedIps, new Set(), voidLookups);
  return {
    root: root.node,
    lookupCount: root.node.totalLookups,
    voidLookups,
    flattenedIps,
    findings: ctx.findings,
    temperror: ctx.temperror,
    finalAll: finalAll(root),
  };
}
