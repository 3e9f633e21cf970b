/**
 * The ingesting process of figure 1 (run with --expose-gc): reads a manifest of gzip'd aggregate
 * reports, then
 *   - the floor: parseAggregateReport on every decompressed file (the XML parser alone), twice;
 *   - the work: ingestReportFile on every gzip'd file (decompression, parse, checks, one transaction
 *     each), two at a time as the worker's default INTAKE_CONCURRENCY reads;
 * each measured with process.cpuUsage (all the process's threads: zlib in the libuv pool, and the
 * reader's worker threads when ingestReportFile reads on them) and wall time, after a warm-up.
 * Prints one JSON line with the figures on stdout.
 *
 *   DATABASE_URL=… node --expose-gc --import tsx ingest.process.ts <manifest.json>
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createDb } from '@sendwell/db';
import { ReportDomainRepository, type ReportDomain } from '../../services/intake/src/addresses/report-domain.repository.js';
import { parseAggregateReport } from '../../services/intake/src/reports/aggregate/parse-aggregate-report.js';
import { ingestReportFile } from '../../services/intake/src/storage/ingest-report-file.js';

export interface IngestManifest {
  /** Ingested before measuring: the reader's threads started and the code paths compiled. */
  warm: Array<{ path: string; domainId: number; records: number }>;
  files: Array<{ path: string; domainId: number; records: number }>;
  concurrency: number;
}

const manifest = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as IngestManifest;
const db = createDb({ connectionString: process.env.DATABASE_URL!, max: manifest.concurrency + 1, applicationName: 'bench-intake-ingest' });
const repo = new ReportDomainRepository(db);
const domains = new Map<number, ReportDomain>();
for (const id of new Set([...manifest.warm, ...manifest.files].map((f) => f.domainId))) {
  const domain = await repo.findActive(id);
  if (!domain) throw new Error(`domain ${id} not found`);
  domains.set(id, domain);
}
const files = manifest.files.map((f) => ({ ...f, gz: readFileSync(f.path) }));
const xmls = files.map((f) => gunzipSync(f.gz));
const totalRecords = files.reduce((s, f) => s + f.records, 0);

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
function measure<T>(fn: () => T): { result: T; cpuMs: number; wallMs: number } {
  global.gc?.();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = fn();
  return { result, cpuMs: cpuMs(process.cpuUsage(c0)), wallMs: performance.now() - t0 };
}

function floor() {
  return measure(() => {
    let records = 0;
    for (const xml of xmls) records += parseAggregateReport(xml).records.length;
    if (records !== totalRecords) throw new Error(`parsed ${records} records, expected ${totalRecords}`);
    return records;
  });
}

// Warm-up: the parser's code paths JIT-compiled, and the ingest path run (threads, pool, partitions) before either is measured.
for (let i = 0; i < Math.min(10, xmls.length); i++) parseAggregateReport(xmls[i]!);
await Promise.all(manifest.warm.map((w) => ingestReportFile(db, domains.get(w.domainId)!, { bytes: readFileSync(w.path), contentType: 'application/gzip', channel: 'upload', messageId: null })));
const floor1 = floor();

global.gc?.();
const c0 = process.cpuUsage();
const t0 = performance.now();
let next = 0;
let stored = 0;
await Promise.all(
  Array.from({ length: manifest.concurrency }, async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const answer = await ingestReportFile(db, domains.get(file.domainId)!, { bytes: file.gz, contentType: 'application/gzip', channel: 'upload', messageId: null });
      for (const a of answer.accepted) stored += a.records;
      if (answer.duplicates.length) throw new Error(`duplicate report in ${file.path}`);
    }
  }),
);
const ingest = { cpuMs: cpuMs(process.cpuUsage(c0)), wallMs: performance.now() - t0 };
if (stored !== totalRecords) throw new Error(`stored ${stored} records, expected ${totalRecords}`);

const floor2 = floor();
await db.destroy();
process.stdout.write(
  `${JSON.stringify({
    reports: files.length,
    records: totalRecords,
    gzBytes: files.reduce((s, f) => s + f.gz.length, 0),
    xmlBytes: xmls.reduce((s, x) => s + x.length, 0),
    ingest,
    floor: [floor1, floor2].map(({ cpuMs, wallMs }) => ({ cpuMs, wallMs })),
  })}\n`,
);
