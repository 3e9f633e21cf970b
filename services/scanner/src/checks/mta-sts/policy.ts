import type { Finding } from '@sendwell/contracts';
import { limitFindings, trimBlanksEnd, trimBlanksStart } from '../input-caps.js';

/**
 * The policy file (RFC 8461 §3.2): `key: value` lines separated by CRLF or LF. `version: STSv1`,
 * `mode` (enforce, testing or none) and `max_age` (0 to 31557600 seconds) are required; one `mx:`
 * line per allowed MX host pattern (required unless mode is none), where a leading `*.` matches
 * exactly one label (§4.1). Keys are case-sensitive; of a repeated key other than `mx` the first
 * counts; unknown keys are ignored.
 */

export const stsModes = ['enforce', 'testing', 'none'] as const;
export type StsMode = (typeof stsModes)[number];

export interface StsPolicy {
  /** `version` as published (valid only if "STSv1"), null when absent. */
  version: string | null;
  mode: StsMode | null;
  maxAge: number | null;
  /** The valid `mx` patterns, lower-case, in the file's order. */
  mx: string[];
  findings: Finding[];
}

export interface MxCoverage {
  exchange: string;
  covered: boolean;
  /** The first pattern that matches the host, null when none does. */
  pattern: string | null;
}

/** The largest `max_age` (about a year). */
export const MAX_AGE_LIMIT = 31_557_600;
const RFC = 'RFC 8461 §3.2';
const KEY = /^[A-Z0-9][\w.-]{0,31}$/i;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const KNOWN_KEYS = ['version', 'mode', 'max_age', 'mx'] as const;
const SINGLE_KEYS = new Set<string>(['version', 'mode', 'max_age']);

function fault(code: string, message: string, recommendation: string, field?: string): Finding {
  return { code, severity: 'error', message, rfc: RFC, recommendation, ...(field ? { field } : {}) };
}

/** A host name in A-labels (RFC 5321 §4.1.2 Domain), lower-case. */
function isDomain(name: string): boolean {
  return name.length <= 253 && name.split('.').every((label) => LABEL.test(label));
}

/** An `mx` pattern: a domain, or "*." and a domain. */
export function isMxPattern(pattern: string): boolean {
  const lower = pattern.toLowerCase();
  return isDomain(lower.startsWith('*.') ? lower.slice(2) : lower);
}

/** §4.1: case-insensitive; "*.example.com" matches "mx.example.com" but neither "example.com" nor "a.mx.example.com". */
export function mxPatternMatches(pattern: string, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  const lower = pattern.toLowerCase();
  if (!lower.startsWith('*.')) return name === lower;
  const suffix = lower.slice(1);
  if (!name.endsWith(suffix)) return false;
  const label = name.slice(0, -suffix.length);
  return label !== '' && !label.includes('.');
}

export function mxCoverage(exchanges: readonly string[], patterns: readonly string[]): MxCoverage[] {
  return exchanges.map((exchange) => {
    const pattern = patterns.find((candidate) => mxPatternMatches(candidate, exchange)) ?? null;
    return { exchange, covered: pattern !== null, pattern };
  });
}

interface Line {
  key: string;
  value: string;
}

/** Splits the body into lines and each line into key and value; lines that are neither are findings. */
function readLines(body: string, findings: Finding[]): Line[] {
  const lines: Line[] = [];
  for (const raw of body.split(/\r?\n/)) {
    if (raw.trim() === '') continue;
    // "key:" then the value without its surrounding blanks; split at the first ":" (a regular
    // expression for this backtracks quadratically on a long line of blanks).
    const colon = raw.indexOf(':');
    const key = colon < 0 ? '' : raw.slice(0, colon);
    if (colon < 0 || !KEY.test(key)) {
      const shown = raw.length > 80 ? `${raw.slice(0, 77)}...` : raw;
      findings.push(fault('MTA_STS_POLICY_SYNTAX', `The policy line "${shown}" is not "key: value", so senders reject the policy.`, 'Write one "key: value" field per line (version, mode, max_age, mx).'));
      continue;
    }
    const lowerKey = key.toLowerCase();
    if (lowerKey !== key && (KNOWN_KEYS as readonly string[]).includes(lowerKey)) {
      findings.push(fault('MTA_STS_POLICY_SYNTAX', `The policy field "${key}" must be written in lower case ("${lowerKey}"); senders do not recognise it.`, `Write the field name as "${lowerKey}:".`, key));
      continue;
    }
    lines.push({ key, value: trimBlanksStart(trimBlanksEnd(raw.slice(colon + 1))) });
  }
  return lines;
}

/** Of a repeated single-valued key the first counts; the others are a warning. */
function firstOfEach(lines: readonly Line[], findings: Finding[]): Map<string, string> {
  const first = new Map<string, string>();
  for (const { key, value } of lines) {
    if (!SINGLE_KEYS.has(key)) continue;
    if (!first.has(key)) {
      first.set(key, value);
      continue;
    }
    findings.push({
      code: 'MTA_STS_DUPLICATE_FIELD',
      severity: 'warning',
      message: `The policy has more than one "${key}" field; senders use the first ("${first.get(key) ?? ''}") and ignore "${value}".`,
      rfc: RFC,
      recommendation: `Keep a single "${key}:" line.`,
      field: key,
    });
  }
  return first;
}

function readVersion(value: string | undefined, findings: Finding[]): string | null {
  if (value === undefined) {
    findings.push(fault('MTA_STS_POLICY_VERSION_INVALID', 'The policy has no "version" field, so senders reject it.', 'Start the policy with the line "version: STSv1".', 'version'));
    return null;
  }
  if (value !== 'STSv1') findings.push(fault('MTA_STS_POLICY_VERSION_INVALID', `The policy version is "${value}"; it must be "STSv1".`, 'Set "version: STSv1".', 'version'));
  return value;
}

function readMode(value: string | undefined, findings: Finding[]): StsMode | null {
  if (value !== undefined && (stsModes as readonly string[]).includes(value)) return value as StsMode;
  findings.push(
    fault(
      'MTA_STS_POLICY_MODE_INVALID',
      value === undefined ? 'The policy has no "mode" field, so senders reject it.' : `The policy mode is "${value}"; it must be enforce, testing or none.`,
      'Set "mode: testing" while you check the reports, then "mode: enforce".',
      'mode',
    ),
  );
  return null;
}

function readMaxAge(value: string | undefined, findings: Finding[]): number | null {
  if (value !== undefined && /^\d{1,10}$/.test(value) && Number(value) <= MAX_AGE_LIMIT) return Number(value);
  findings.push(
    fault(
      'MTA_STS_POLICY_MAX_AGE_INVALID',
      value === undefined
        ? 'The policy has no "max_age" field, so senders reject it.'
        : `The policy max_age is "${value}"; it must be a whole number of seconds from 0 to ${MAX_AGE_LIMIT}.`,
      'Set "max_age: 604800" (a week) or longer, up to 31557600 (a year).',
      'max_age',
    ),
  );
  return null;
}

function readMx(lines: readonly Line[], mode: StsMode | null, findings: Finding[]): string[] {
  const patterns: string[] = [];
  for (const { key, value } of lines) {
    if (key !== 'mx') continue;
    if (isMxPattern(value)) patterns.push(value.toLowerCase());
    else {
      findings.push(
        fault(
          'MTA_STS_POLICY_MX_INVALID',
          `The policy's mx pattern "${value}" is not a host name (a "*." wildcard may only replace the leftmost label), so senders reject the policy.`,
          'Write each MX host name as published in the MX records, without a trailing dot, e.g. "mx: mail.example.com" or "mx: *.example.net".',
          'mx',
        ),
      );
    }
  }
  const mxLines = lines.filter((line) => line.key === 'mx').length;
  if (mxLines === 0 && mode !== 'none') {
    findings.push(fault('MTA_STS_POLICY_MX_MISSING', 'The policy lists no "mx" patterns, so no MX host is allowed and senders reject it.', 'Add one "mx:" line per MX host (or "*." pattern) of the domain.', 'mx'));
  }
  return patterns;
}

/** Keys that are not in the policy format: ignored by senders, but usually a typo (max-age for max_age). */
function unknownKeyFindings(lines: readonly Line[]): Finding[] {
  const unknown = [...new Set(lines.map((line) => line.key).filter((key) => !(KNOWN_KEYS as readonly string[]).includes(key)))];
  return unknown.map((key) => ({
    code: 'MTA_STS_POLICY_UNKNOWN_FIELD',
    severity: 'info' as const,
    message: `The policy field "${key}" is not part of MTA-STS and senders ignore it.`,
    rfc: RFC,
    recommendation: `Check "${key}" for a typo (fields: version, mode, max_age, mx) or remove it.`,
    field: key,
  }));
}

export function parseStsPolicy(body: string): StsPolicy {
  const findings: Finding[] = [];
  const lines = readLines(body, findings);
  const first = firstOfEach(lines, findings);
  const version = readVersion(first.get('version'), findings);
  const mode = readMode(first.get('mode'), findings);
  const maxAge = readMaxAge(first.get('max_age'), findings);
  const mx = readMx(lines, mode, findings);
  findings.push(...unknownKeyFindings(lines));
  return { version, mode, maxAge, mx, findings: limitFindings(findings) };
}
