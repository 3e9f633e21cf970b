import type { Finding } from '@sendwell/contracts';
import { MAX_NAMES_PER_LOOKUP } from './evaluate.js';
import { looksGlued, type Mechanism, type Modifier, type SpfSyntaxProblem } from '../shared/spf-record/parse.js';
import type { SpfTreeNode } from './tree-node.js';

/** The findings the walk notes on the record they are in, one builder per problem. */

function finding(code: string, severity: Finding['severity'], message: string, rfc: string, recommendation: string, extra: Record<string, unknown> = {}): Finding {
  return { code, severity, message, rfc, recommendation, ...extra };
}

export function syntaxErrorFinding(domain: string, { term, message, code }: SpfSyntaxProblem): Finding {
  return finding(
    code,
    'error',
    `The SPF record of ${domain} has a syntax error at "${term}" (${message}), so SPF evaluation ends in a permanent error for every message.`,
    code === 'SPF_DUPLICATE_MODIFIER' ? 'RFC 7208 §6' : 'RFC 7208 §4.6, §12',
    looksGlued(term)
      ? `"${term}" looks like two terms run together: a TXT record split into several strings is joined without spaces (RFC 7208 §3.3), so end each string with a space.`
      : `Correct or remove "${term}".`,
    { domain, term },
  );
}

/** An include or redirect whose target has no SPF record (`code` says which). */
export function targetWithoutRecordFinding(node: SpfTreeNode, code: string): Finding {
  const how = node.via === 'include' ? 'include' : 'redirect';
  return finding(
    code,
    'error',
    `"${node.term}" points to ${node.domain}, which has no SPF record, so every evaluation reaching it is a permanent error.`,
    node.via === 'include' ? 'RFC 7208 §5.2' : 'RFC 7208 §6.1',
    `Remove the ${how} or correct the domain name (providers document the exact name, e.g. "include:_spf.google.com").`,
    { domain: node.domain, term: node.term },
  );
}

export function targetWithSeveralRecordsFinding(node: SpfTreeNode, records: string[]): Finding {
  return finding(
    'SPF_MULTIPLE_RECORDS',
    'error',
    `${node.domain}, reached through "${node.term}", publishes ${records.length} SPF records, which is a permanent error.`,
    'RFC 7208 §4.5',
    `Ask the owner of ${node.domain} to merge its SPF records into one.`,
    { domain: node.domain, term: node.term, records },
  );
}

export function senderMacroFinding(domain: string, raw: string): Finding {
  return finding(
    'SPF_MACRO_DEPENDS_ON_SENDER',
    'info',
    `"${raw}" in the record of ${domain} depends on the sender or the connecting IP, so what it includes is only known per message.`,
    'RFC 7208 §7',
    'Nothing to fix if intended; the lookup is counted but its contents cannot be checked in advance.',
    { domain, term: raw },
  );
}

export function includeLoopFinding(domain: string, raw: string, path: string[]): Finding {
  return finding(
    'SPF_INCLUDE_LOOP',
    'error',
    `The SPF records loop (${path.join(' → ')}), so evaluation runs into the lookup limit and fails permanently.`,
    'RFC 7208 §4.6.4',
    `Remove "${raw}" from the record of ${domain}.`,
    { domain, term: raw, path },
  );
}

export function termAfterAllFinding(domain: string, mechanism: Mechanism): Finding {
  return finding(
    'SPF_TERMS_AFTER_ALL',
    'info',
    `"${mechanism.raw}" comes after "all" in the record of ${domain} and is never used.`,
    'RFC 7208 §5.1',
    'Move "all" to the end of the record, or remove the terms after it.',
    { domain, term: mechanism.raw },
  );
}

export function includedPassAllFinding(node: SpfTreeNode, mechanism: Mechanism): Finding {
  return finding(
    'SPF_PASS_ALL',
    'error',
    `The included record of ${node.domain} ends in "+all", so "${node.term}" passes mail from any server on the Internet.`,
    'RFC 7208 §5.1, §5.2',
    `Remove "${node.term}" or ask its owner to end the record with "~all" or "-all".`,
    { domain: node.domain, term: mechanism.raw },
  );
}

export function ptrFinding(domain: string, mechanism: Mechanism): Finding {
  return finding(
    'SPF_PTR_USED',
    'warning',
    `The record of ${domain} uses "${mechanism.raw}", which is slow, unreliable and which receivers may ignore.`,
    'RFC 7208 §5.5',
    'Replace "ptr" with ip4:/ip6: networks or an "a" or "include" term.',
    { domain, term: mechanism.raw },
  );
}

export function unknownModifierFinding(domain: string, modifier: Modifier): Finding {
  return finding('SPF_UNKNOWN_MODIFIER', 'info', `"${modifier.raw}" in the record of ${domain} is not a known modifier and is ignored.`, 'RFC 7208 §6', 'Remove it unless a tool of yours reads it.', {
    domain,
    term: modifier.raw,
  });
}

export function redirectIgnoredFinding(domain: string, redirect: Modifier): Finding {
  return finding(
    'SPF_REDIRECT_IGNORED',
    'info',
    `"${redirect.raw}" in the record of ${domain} is ignored because the record has an "all" mechanism.`,
    'RFC 7208 §6.1',
    'Remove either the "all" mechanism or the redirect.',
    { domain, term: redirect.raw },
  );
}

export function tooManyMxNamesFinding(domain: string, mechanism: Mechanism, count: number): Finding {
  return finding(
    'SPF_MX_TOO_MANY_NAMES',
    'error',
    `"${mechanism.raw}" in the record of ${domain} finds ${count} mail servers; more than ${MAX_NAMES_PER_LOOKUP} makes SPF fail with a permanent error.`,
    'RFC 7208 §4.6.4',
    'List the mail servers\' addresses with ip4:/ip6: instead of "mx", or reduce the MX set to 10 names.',
    { domain, term: mechanism.raw },
  );
}

export function walkTruncatedFinding(maxQueries: number): Finding {
  return finding(
    'SPF_WALK_TRUNCATED',
    'info',
    `The record tree needs more than ${maxQueries} DNS queries to walk; the parts beyond that were not examined.`,
    'RFC 7208 §4.6.4',
    'Flatten or remove includes: a record this large also exceeds the lookup limit.',
  );
}
