/**
 * Caps on what a report may cost before and while it is read. Receivers send aggregate reports of a
 * few kilobytes to a few megabytes (a large mailbox provider's daily report for a busy domain is
 * under 5 MB of XML); TLS-RPT reports are smaller. Every cap is well above what a legitimate sender
 * reaches and well below what would hurt a worker.
 */
export const REPORT_LIMITS = {
  /** A message or file as received (compressed, or a whole MIME message). */
  inputBytes: 25 * 1024 * 1024,
  /** One report once decompressed (XML or JSON). */
  decompressedBytes: 100 * 1024 * 1024,
  /**
   * Decompressed : compressed. Aggregate XML compresses 10–40:1; a gzip bomb of zeros about 1000:1.
   * Judged only past `ratioFloorBytes`, so tiny reports with long headers are not refused.
   */
  compressionRatio: 200,
  ratioFloorBytes: 1024 * 1024,
  /** Files in a zip (a report is one; a few allow for a README or signature some senders add). */
  zipEntries: 8,
  /** Containers inside containers: a zip in a MIME part in a forwarded message. */
  nestingDepth: 3,
  /**
   * MIME entities in one message, multiparts included (a report message has two to five), and
   * header lines in one entity (a long Received chain has a few hundred).
   */
  mimeParts: 100,
  mimeHeaderLines: 1_000,
  /** Records (rows) in one aggregate report. */
  aggregateRecords: 200_000,
  /** XML element depth (the aggregate format is 5 deep). */
  xmlDepth: 32,
  /** Characters of one XML text node or attribute value. */
  xmlTextChars: 4096,
  /** Policies and failure details in one TLS-RPT report. */
  tlsPolicies: 1_000,
  tlsFailureDetails: 10_000,
  /** JSON nesting depth: TLS-RPT is 6 deep; V8 gives up around a few thousand with a RangeError. */
  jsonDepth: 32,
} as const;

/** The caps as a parameter, so tests can lower one instead of building 200,000 records. */
export type ReportLimits = { readonly [K in keyof typeof REPORT_LIMITS]: number };
