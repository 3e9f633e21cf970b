/**
 * Unwraps what a receiver sends into the report documents inside (issue 25). Receivers send an
 * aggregate report (RFC 7489 §7.2.1.1) as raw XML, gzip (RFC 1952) or zip, usually attached to an
 * email, sometimes inside a forwarded message (message/rfc822), with content types that are often
 * wrong (application/octet-stream, text/plain) and names that are often right (.xml.gz, .zip).
 *
 * So a part is read by its magic bytes, and its content type and name only decide whether a part
 * that looks like XML is a report or, say, an HTML notice. Caps, all from limits.ts: the input
 * (`inputBytes`) before anything is parsed; decompressed bytes and the compression ratio while
 * inflating (decompress.ts); files in a zip (`zipEntries`); containers inside containers
 * (`nestingDepth`); MIME parts and header lines (mime/read-mime-leaves.ts). Everything else, and
 * nothing found, is a ReportRefusal. All of it is synchronous and linear in the input.
 */
import { gunzipCapped } from '../decompress.js';
import { REPORT_LIMITS, type ReportLimits } from '../limits.js';
import { readMimeLeaves } from '../mime/read-mime-leaves.js';
import { refuse } from '../refusal.js';
import { sniff } from './sniff.js';
import { unzipCapped } from './unzip-capped.js';

export interface ReportFile {
  /** The file name the sender gave (attachment or zip entry, less a .gz), or null. */
  name: string | null;
  bytes: Buffer;
}

/** What a message or file holds: aggregate XML documents and TLS-RPT JSON documents, decompressed. */
export interface FoundReportFiles {
  xml: ReportFile[];
  json: ReportFile[];
}

interface Blob {
  name: string | null;
  contentType: string | null;
  bytes: Uint8Array;
}

const XML_TYPES = new Set(['text/xml', 'application/xml', 'application/octet-stream', 'application/gzip', 'application/x-gzip', 'application/zip', 'application/x-zip-compressed']);
/** RFC 8460 §5.3 names application/tlsrpt+json and +gzip; senders also use the generic types. */
const JSON_TYPES = new Set(['application/tlsrpt+json', 'application/tlsrpt+gzip', 'application/json', 'text/json', 'application/octet-stream', 'application/gzip', 'application/x-gzip', 'application/zip', 'application/x-zip-compressed']);
const FORWARDED = 'message/rfc822';

function mediaType(contentType: string | null | undefined): string | null {
  const type = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  return type || null;
}

/** A part that looks like XML is taken when its type or name says report, not when it is e.g. text/html. */
function claimsXml(blob: Blob): boolean {
  const type = mediaType(blob.contentType);
  return type === null || XML_TYPES.has(type) || type.endsWith('+xml') || /\.xml$/i.test(blob.name ?? '');
}

/** Likewise for JSON: a text/plain body that happens to start with `{` is not a TLS report. */
function claimsJson(blob: Blob): boolean {
  const type = mediaType(blob.contentType);
  return type === null || JSON_TYPES.has(type) || type.endsWith('+json') || /\.json$/i.test(blob.name ?? '');
}

function withoutGz(name: string | null): string | null {
  return name?.replace(/\.gz$/i, '') ?? null;
}

function openContainer(opened: number, limits: ReportLimits): number {
  if (opened + 1 > limits.nestingDepth) {
    refuse('MALFORMED_CONTAINER', `The report is wrapped more than ${limits.nestingDepth} levels deep (archives or forwarded messages inside each other).`);
  }
  return opened + 1;
}

function unwrap(blob: Blob, opened: number, limits: ReportLimits, isTopLevel: boolean, found: FoundReportFiles): void {
  const kind = sniff(blob.bytes);
  if (kind === 'xml') {
    if (claimsXml(blob)) found.xml.push({ name: blob.name, bytes: Buffer.from(blob.bytes) });
    return;
  }
  if (kind === 'json') {
    if (claimsJson(blob)) found.json.push({ name: blob.name, bytes: Buffer.from(blob.bytes) });
    return;
  }
  if (kind === 'gzip') {
    const depth = openContainer(opened, limits);
    unwrap({ name: withoutGz(blob.name), contentType: null, bytes: gunzipCapped(blob.bytes) }, depth, limits, false, found);
    return;
  }
  if (kind === 'zip') {
    const depth = openContainer(opened, limits);
    for (const file of unzipCapped(blob.bytes, limits)) unwrap({ name: file.name, contentType: null, bytes: file.bytes }, depth, limits, false, found);
    return;
  }
  // Only the input itself or a forwarded message is read as MIME: a text attachment that happens
  // to start like a header line is not a message.
  if (kind === 'mime' && (isTopLevel || mediaType(blob.contentType) === FORWARDED)) {
    const depth = openContainer(opened, limits);
    // Every leaf is looked at, text bodies too: sniff() and the claims decide, as for attachments.
    for (const leaf of readMimeLeaves(blob.bytes, limits)) unwrap({ name: leaf.name, contentType: leaf.type, bytes: leaf.body }, depth, limits, false, found);
  }
}

function checkInputSize(input: Uint8Array, limits: ReportLimits): void {
  if (input.length > limits.inputBytes) {
    refuse('TOO_LARGE', `The file is larger than ${Math.round(limits.inputBytes / 1024 / 1024)} MB, more than any real report.`);
  }
}

/**
 * Every report document in `input`, aggregate XML and TLS-RPT JSON alike (a TLS report comes by
 * HTTPS as JSON or gzip, or by mail as an application/tlsrpt+gzip attachment, RFC 8460 §5.3). Finding
 * nothing is not refused here: the caller may still read the input as a failure report.
 */
export function findReportFiles(input: Uint8Array, contentType?: string | null, limits: ReportLimits = REPORT_LIMITS): FoundReportFiles {
  checkInputSize(input, limits);
  const found: FoundReportFiles = { xml: [], json: [] };
  unwrap({ name: null, contentType: contentType ?? null, bytes: input }, 0, limits, true, found);
  return found;
}

/**
 * The decompressed aggregate report documents in `input` (a file, or a whole message); `contentType`
 * is the sender's claim, used only to tell an XML report from other XML.
 */
export function unwrapReportFiles(input: Uint8Array, contentType?: string, limits: ReportLimits = REPORT_LIMITS): ReportFile[] {
  const files = findReportFiles(input, contentType, limits).xml;
  if (files.length === 0) {
    refuse('NO_REPORT_FOUND', 'No report was found: expected an XML report, gzip (.xml.gz) or zip file, or an email with one attached.');
  }
  return files;
}
