import { type HeaderField, parseHeaderFields } from '../mime/header-fields.js';
import { type MimeLeaf, readEntityHeaders } from '../mime/read-mime-leaves.js';
import { leafText } from './leaf-text.js';
import { ORIGINAL_MESSAGE_TYPES, parseDate, summariseOriginal } from './original-headers.js';
import { isDomainName, keep } from './redact.js';
import type { FailureReport } from './types.js';

const LABELS = ['sender domain', 'sender ip address', 'received date', 'spf alignment', 'dkim alignment', 'dmarc results'];
/** Fields that begin a copy of the original headers pasted after the labels. */
const HEADER_STARTS = new Set(['received', 'return-path', 'from', 'message-id', 'dkim-signature', 'authentication-results', 'date', 'to', 'subject']);

/**
 * The plain-text failure report some receivers send (OpenDMARC's shape): labelled lines such as
 * `Sender Domain: example.com`, with the original headers attached or pasted below them.
 * Null unless a text part carries at least two of the labels.
 */
export function readPlainTextReport(leaves: MimeLeaf[]): FailureReport | null {
  for (const leaf of leaves) {
    if (leaf.type !== 'text/plain') continue;
    const text = leafText(leaf);
    // Receivers indent the labels, so lines are read unindented (and so unfolded).
    const fields = parseHeaderFields(text.split('\n').map((line) => line.trimStart()).join('\n'));
    const labelled = new Map<string, string>();
    let lastLabel = -1;
    fields.forEach((field, index) => {
      if (LABELS.includes(field.name) && !labelled.has(field.name)) {
        labelled.set(field.name, field.value);
        lastLabel = index;
      }
    });
    if (labelled.size < 2) continue;

    const attached = leaves.find((other) => ORIGINAL_MESSAGE_TYPES.has(other.type));
    const originalHeaders = attached ? readEntityHeaders(attached.body).headers : pastedHeaders(text, fields.slice(lastLabel + 1));
    const domain = labelled.get('sender domain')?.toLowerCase() ?? null;
    return {
      format: 'plain-text',
      authFailure: 'dmarc',
      reportedDomain: domain && isDomainName(domain) ? domain : null,
      sourceIp: keep(labelled.get('sender ip address') ?? null),
      arrivalDate: parseDate(labelled.get('received date') ?? null),
      originalMailFrom: null,
      originalRcptTo: [],
      authenticationResults: [],
      dkim: { domain: null, selector: null, identity: null },
      spfDns: [],
      deliveryResult: null,
      results: { spf: null, dkim: null, dmarc: keep(labelled.get('dmarc results')?.toLowerCase() ?? null) },
      alignment: { spf: yesNo(labelled.get('spf alignment')), dkim: yesNo(labelled.get('dkim alignment')) },
      reportedUris: [],
      original: summariseOriginal(originalHeaders),
    };
  }
  return null;
}

/**
 * Headers pasted inline: from the first field after the labels that opens a header block, to the
 * first empty line after it (where the original body would begin).
 */
function pastedHeaders(body: string, afterLabels: HeaderField[]): HeaderField[] {
  const first = afterLabels.find((field) => HEADER_STARTS.has(field.name));
  if (!first) return [];
  const lines = body.split('\n');
  const start = lines.findIndex((line) => line.toLowerCase().startsWith(`${first.name}:`));
  const end = lines.indexOf('', start);
  return parseHeaderFields(lines.slice(start, end === -1 ? undefined : end).join('\n'));
}

function yesNo(value: string | undefined): string | null {
  const lower = value?.trim().toLowerCase();
  if (!lower) return null;
  if (lower === 'yes' || lower === 'pass') return 'pass';
  if (lower === 'no' || lower === 'fail') return 'fail';
  return keep(lower);
}
