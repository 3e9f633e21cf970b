import type { Finding } from '@sendwell/contracts';
import type { Resolver } from '../../dns/types.js';
import { isOutsideDomain } from '../../dns/shared-cache.js';
import { fetchSpfRecord, spfQuery, SpfTempError } from './lookup.js';
import { expandMacro, toQueryName, type MacroString, type MacroValues } from './macro.js';
import { looksGlued, parseRecord, type Mechanism, type Qualifier, type SpfRecord } from './parse.js';
import { MAX_NAMES_PER_LOOKUP } from './evaluate.js';

/**
 * The static walk behind the scan: without a connecting IP, follow every include and redirect, count
 * the DNS-querying terms the worst-case evaluation would spend (an IP that matches nothing), count
 * void lookups, resolve a/mx to addresses, and note every problem with the record it is in.
 */

export interface SpfTreeNode {
  domain: string;
  via: 'root' | 'include' | 'redirect';
  /** The term that led here, e.g. "include:_spf.example.net"; null for the root. */
  term: string | null;
  record: string | null;
  /** DNS-querying terms of this record itself (include, a, mx, ptr, exists, redirect). */
  lookups: number;
  /** This record's lookups plus everything below it. */
  totalLookups: number;
  voidLookups: number;
  /** Why this record could not be (fully) evaluated; null when fine. */
  error: string | null;
  errorCode: string | null;
  children: SpfTreeNode[];
}

export interface FlattenedIp {
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

function finding(code: string, severity: Finding['severity'], message: string, rfc: string, recommendation: string, extra: Record<string, unknown> = {}): Finding {
  return { code, severity, message, rfc, recommendation, ...extra };
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

async function resolveTerm(ctx: WalkContext, walk: WalkNode, mechanism: Mechanism, target: string, slot: TermSlot): Promise<void> {
  const domain = walk.node.domain;
  const push = (address: string, kind: 'a' | 'mx') =>
    slot.ips.push({ ip: withCidr(address, mechanism), source: domain, term: mechanism.raw, mechanism: kind, qualifier: mechanism.qualifier });
  try {
    if (mechanism.name === 'a') {
      const found = await addresses(ctx, target);
      if (!found) return;
      if (found.void) {
        walk.node.voidLookups++;
        slot.voids.push({ source: domain, term: mechanism.raw, name: target, type: 'A/AAAA' });
      }
      for (const address of found.list) push(address, 'a');
      return;
    }
    if (mechanism.name === 'mx') {
      const mx = await query(ctx, target, 'MX');
      if (!mx) return;
      if (mx.void) {
        walk.node.voidLookups++;
        slot.voids.push({ source: domain, term: mechanism.raw, name: target, type: 'MX' });
      }
      const names = mx.answers
        .slice()
        .sort((x, y) => x.priority - y.priority)
        .map((answer) => answer.exchange.toLowerCase().replace(/\.$/, ''))
        .filter((name) => name !== '');
      if (names.length > MAX_NAMES_PER_LOOKUP) {
        ctx.findings.push(
          finding(
            'SPF_MX_TOO_MANY_NAMES',
            'error',
            `"${mechanism.raw}" in the record of ${domain} finds ${names.length} mail servers; more than ${MAX_NAMES_PER_LOOKUP} makes SPF fail with a permanent error.`,
            'RFC 7208 §4.6.4',
            'List the mail servers\' addresses with ip4:/ip6: instead of "mx", or reduce the MX set to 10 names.',
            { domain, term: mechanism.raw },
          ),
        );
      }
      const resolved = await Promise.all(names.slice(0, MAX_NAMES_PER_LOOKUP).map((name) => addresses(ctx, name)));
      for (const found of resolved) for (const address of found?.list ?? []) push(address, 'mx');
      return;
    }
    if (mechanism.name === 'exists') {
      const a = await query(ctx, target, 'A');
      if (a?.void) {
        walk.node.voidLookups++;
        slot.voids.push({ source: domain, term: mechanism.raw, name: target, type: 'A' });
      }
    }
  } catch (error) {
    if (error instanceof SpfTempError) markTemp(ctx, walk, error);
    else throw error;
  }
}

async function walkChild(ctx: WalkContext, walk: WalkNode, ancestors: string[]): Promise<void> {
  const node = walk.node;
  if (ancestors.length > MAX_DEPTH) {
    node.error = `includes nested deeper than ${MAX_DEPTH} levels; not followed`;
    node.errorCode = 'SPF_INCLUDE_TOO_DEEP';
    return;
  }
  if (ctx.queries >= MAX_WALK_QUERIES) {
    ctx.truncated = true;
    node.error = 'not followed: the record tree is too large to walk';
    node.errorCode = 'SPF_WALK_TRUNCATED';
    return;
  }
  ctx.queries++;
  let lookup;
  try {
    // An include or redirect target outside the domain (a provider's `_spf.google.com`) is shared.
    lookup = await fetchSpfRecord(ctx.resolver, node.domain, isOutsideDomain(node.domain, ctx.rootDomain));
  } catch (error) {
    if (error instanceof SpfTempError) return markTemp(ctx, walk, error);
    throw error;
  }
  const how = node.via === 'include' ? 'include' : 'redirect';
  if (lookup.kind === 'none') {
    node.error = `${node.domain} has no SPF record`;
    node.errorCode = node.via === 'include' ? 'SPF_INCLUDE_NO_RECORD' : 'SPF_REDIRECT_NO_RECORD';
    ctx.findings.push(
      finding(
        node.errorCode,
        'error',
        `"${node.term}" points to ${node.domain}, which has no SPF record, so every evaluation reaching it is a permanent error.`,
        node.via === 'include' ? 'RFC 7208 §5.2' : 'RFC 7208 §6.1',
        `Remove the ${how} or correct the domain name (providers document the exact name, e.g. "include:_spf.google.com").`,
        { domain: node.domain, term: node.term },
      ),
    );
    return;
  }
  if (lookup.kind === 'multiple') {
    node.error = `${node.domain} publishes ${lookup.records.length} SPF records`;
    node.errorCode = 'SPF_MULTIPLE_RECORDS';
    ctx.findings.push(
      finding(
        'SPF_MULTIPLE_RECORDS',
        'error',
        `${node.domain}, reached through "${node.term}", publishes ${lookup.records.length} SPF records, which is a permanent error.`,
        'RFC 7208 §4.5',
        `Ask the owner of ${node.domain} to merge its SPF records into one.`,
        { domain: node.domain, term: node.term, records: lookup.records },
      ),
    );
    return;
  }
  node.record = lookup.text;
  await walkRecord(ctx, walk, ancestors);
}

async function walkRecord(ctx: WalkContext, walk: WalkNode, ancestors: string[]): Promise<void> {
  const node = walk.node;
  const domain = node.domain;
  const text = node.record ?? '';
  const parsed = parseRecord(text);
  if (!parsed.ok) {
    const { term, message, code } = parsed.problem;
    node.error = `syntax error at "${term}": ${message}`;
    node.errorCode = code;
    const glued = looksGlued(term);
    ctx.findings.push(
      finding(
        code,
        'error',
        `The SPF record of ${domain} has a syntax error at "${term}" (${message}), so SPF evaluation ends in a permanent error for every message.`,
        code === 'SPF_DUPLICATE_MODIFIER' ? 'RFC 7208 §6' : 'RFC 7208 §4.6, §12',
        glued
          ? `"${term}" looks like two terms run together: a TXT record split into several strings is joined without spaces (RFC 7208 §3.3), so end each string with a space.`
          : `Correct or remove "${term}".`,
        { domain, term },
      ),
    );
    return;
  }
  const record = parsed.record;
  walk.record = record;
  const tasks: Array<Promise<void>> = [];

  const follow = (via: 'include' | 'redirect', raw: string, macro: MacroString) => {
    node.lookups++;
    const target = staticExpand(macro, domain, ctx.rootDomain);
    if (target === null) {
      ctx.findings.push(
        finding(
          'SPF_MACRO_DEPENDS_ON_SENDER',
          'info',
          `"${raw}" in the record of ${domain} depends on the sender or the connecting IP, so what it includes is only known per message.`,
          'RFC 7208 §7',
          'Nothing to fix if intended; the lookup is counted but its contents cannot be checked in advance.',
          { domain, term: raw },
        ),
      );
      return;
    }
    const child: WalkNode = {
      node: { domain: target, via, term: raw, record: null, lookups: 0, totalLookups: 0, voidLookups: 0, error: null, errorCode: null, children: [] },
      slots: [],
      record: null,
    };
    node.children.push(child.node);
    walk.slots.push({ child });
    if (ancestors.includes(target)) {
      child.node.error = `loop: ${[...ancestors, target].join(' → ')}`;
      child.node.errorCode = 'SPF_INCLUDE_LOOP';
      ctx.findings.push(
        finding(
          'SPF_INCLUDE_LOOP',
          'error',
          `The SPF records loop (${[...ancestors, target].join(' → ')}), so evaluation runs into the lookup limit and fails permanently.`,
          'RFC 7208 §4.6.4',
          `Remove "${raw}" from the record of ${domain}.`,
          { domain, term: raw, path: [...ancestors, target] },
        ),
      );
      return;
    }
    tasks.push(walkChild(ctx, child, [...ancestors, target]));
  };

  let seenAll = false;
  for (const mechanism of record.mechanisms) {
    if (seenAll) {
      ctx.findings.push(
        finding(
          'SPF_TERMS_AFTER_ALL',
          'info',
          `"${mechanism.raw}" comes after "all" in the record of ${domain} and is never used.`,
          'RFC 7208 §5.1',
          'Move "all" to the end of the record, or remove the terms after it.',
          { domain, term: mechanism.raw },
        ),
      );
      break;
    }
    switch (mechanism.name) {
      case 'all':
        seenAll = true;
        if (mechanism.qualifier === '+' && node.via === 'include') {
          ctx.findings.push(
            finding(
              'SPF_PASS_ALL',
              'error',
              `The included record of ${domain} ends in "+all", so "${node.term}" passes mail from any server on the Internet.`,
              'RFC 7208 §5.1, §5.2',
              `Remove "${node.term}" or ask its owner to end the record with "~all" or "-all".`,
              { domain, term: mechanism.raw },
            ),
          );
        }
        break;
      case 'ip4':
      case 'ip6': {
        const network = mechanism.network;
        if (!network) break;
        const prefix = network.version === 4 ? mechanism.cidr4 : mechanism.cidr6;
        const max = network.version === 4 ? 32 : 128;
        const ip = prefix === max ? network.text : `${network.text}/${prefix}`;
        walk.slots.push({ ips: [{ ip, source: domain, term: mechanism.raw, mechanism: mechanism.name, qualifier: mechanism.qualifier }], voids: [] });
        break;
      }
      case 'include':
        follow('include', mechanism.raw, mechanism.domainSpec as MacroString);
        break;
      case 'ptr':
        node.lookups++;
        ctx.findings.push(
          finding(
            'SPF_PTR_USED',
            'warning',
            `The record of ${domain} uses "${mechanism.raw}", which is slow, unreliable and which receivers may ignore.`,
            'RFC 7208 §5.5',
            'Replace "ptr" with ip4:/ip6: networks or an "a" or "include" term.',
            { domain, term: mechanism.raw },
          ),
        );
        break;
      case 'a':
      case 'mx':
      case 'exists': {
        node.lookups++;
        const target = mechanism.domainSpec ? staticExpand(mechanism.domainSpec, domain, ctx.rootDomain) : domain;
        if (target === null) break;
        const slot: TermSlot = { ips: [], voids: [] };
        walk.slots.push(slot);
        tasks.push(resolveTerm(ctx, walk, mechanism, target, slot));
        break;
      }
    }
  }
  for (const modifier of record.unknownModifiers) {
    ctx.findings.push(
      finding('SPF_UNKNOWN_MODIFIER', 'info', `"${modifier.raw}" in the record of ${domain} is not a known modifier and is ignored.`, 'RFC 7208 §6', 'Remove it unless a tool of yours reads it.', {
        domain,
        term: modifier.raw,
      }),
    );
  }
  if (record.redirect) {
    if (record.hasAll) {
      ctx.findings.push(
        finding(
          'SPF_REDIRECT_IGNORED',
          'info',
          `"${record.redirect.raw}" in the record of ${domain} is ignored because the record has an "all" mechanism.`,
          'RFC 7208 §6.1',
          'Remove either the "all" mechanism or the redirect.',
          { domain, term: record.redirect.raw },
        ),
      );
    } else {
      follow('redirect', record.redirect.raw, record.redirect.value);
    }
  }
  await Promise.all(tasks);
  node.totalLookups = node.lookups + node.children.reduce((sum, child) => sum + child.totalLookups, 0);
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
  if (ctx.truncated) {
    ctx.findings.push(
      finding(
        'SPF_WALK_TRUNCATED',
        'info',
        `The record tree needs more than ${MAX_WALK_QUERIES} DNS queries to walk; the parts beyond that were not examined.`,
        'RFC 7208 §4.6.4',
        'Flatten or remove includes: a record this large also exceeds the lookup limit.',
      ),
    );
  }
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
