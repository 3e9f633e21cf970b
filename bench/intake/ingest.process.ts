/**
 * The ingesting process of figure 1 (run with --expose-gc): reads a manifest of gzip'd aggregate
 * reports, then, alternating over four slices of them,
 *   - the floor: parseAggregateReport on the slice's decompressed files (the XML parser alone);
 *   - the work: ingestReportFile on the slice's gzip'd files (decompression, parse, checks, one
 *     transaction each), two at a time as the worker's default INTAKE_CONCURRENCY reads;
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

/** The floor on some of the files: the XML parser alone, on the decompressed bytes. */
function floor(slice: number[]) {
  return measure(() => {
    let records = 0;
    for (const i of slice) records += parseAggregateReport(xmls[i]!).records.length;
    return records;
  });
}

async function ingest(slice: number[]) {
  global.gc?.();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  let stored = 0;
  await Promise.all(
    Array.from({ length: manifest.concurrency }, async () => {
      while (next < slice.length) {
        const file = files[slice[next++]!]!;
        const answer = await ingestReportFile(db, domains.get(file.domainId)!, { bytes: file.gz, contentType: 'application/gzip', channel: 'upload', messageId: null });
        for (const a of answer.accepted) stored += a.records;
        if (answer.duplicates.length) throw new Error(`duplicate report in ${file.path}`);
      }
    }),
  );
  return { result: stored, cpuMs: cpuMs(process.cpuUsage(c0)), wallMs: performance.now() - t0 };
}

// Warm-up: the parser's code paths JIT-compiled, and the ingest path run (threads, pool, partitions) before either is measured.
for (let i = 0; i < Math.min(10, xmls.length); i++) parseAggregateReport(xmls[i]!);
await Promise.all(manifest.warm.map((w) => ingestReportFile(db, domains.get(w.domainId)!, { bytes: readFileSync(w.path), contentType: 'application/gzip', channel: 'upload', messageId: null })));

// Floor and ingest alternate over four slices of the files (every fourth file, so each slice has the
// same mix of sizes): on a shared machine CPU time per operation drifts by minutes, and the ratio
// should compare the two at the same moments.
const SLICES = 4;
const slices = Array.from({ length: SLICES }, (_, s) => files.map((_, i) => i).filter((i) => i % SLICES === s));
const rounds: Array<{ records: number; floor: { cpuMs: number; wallMs: number }; ingest: { cpuMs: number; wallMs: number } }> = [];
for (const slice of slices) {
  const f = floor(slice);
  const g = await ingest(slice);
  if (f.result !== g.result) throw new Error(`parsed ${f.result} records, stored ${g.result}`);
  rounds.push({ records: g.result, floor: { cpuMs: f.cpuMs, wallMs: f.wallMs }, ingest: { cpuMs: g.cpuMs, wallMs: g.wallMs } });
}
const sum = (k: 'floor' | 'ingest', f: 'cpuMs' | 'wallMs') => rounds.reduce((acc, r) => acc + r[k][f], 0);
if (rounds.reduce((acc, r) => acc + r.records, 0) !== totalRecords) throw new Error('not every record stored');

await db.destroy();
process.stdout.write(
  `${JSON.stringify({
    reports: files.length,
    records: totalRecords,
    gzBytes: files.reduce((s, f) => s + f.gz.length, 0),
    xmlBytes: xmls.reduce((s, x) => s + x.length, 0),
    ingest: { cpuMs: sum('ingest', 'cpuMs'), wallMs: sum('ingest', 'wallMs') },
    floor: { cpuMs: sum('floor', 'cpuMs'), wallMs: sum('floor', 'wallMs') },
    rounds,
  })}\n`,
);
