/**
 * Scanner benchmark (issue 3, "Benchmark"; ARCHITECTURE.md "Scale, on paper"; issue 17, the second depth):
 *   1. full scans per second of one worker process, with DNS queries, CPU and latency per scan;
 *   2. memory over a 10,000-scan soak;
 *   3. SPF + DMARC of the same domains through mailauth, the peer;
 *   4. the scheduler claiming and enqueueing from a million-domain table.
 *
 * The world (fixture-zones.ts, which documents every share): 1,000 domains `shopNNNN.example`, 80% of
 * them receiving mail at 50 providers (Zipf-like), 20% self-hosted, every MX host on a loopback
 * address of its own (127.1.p.k for providers, 127.2-3.x.y for self-hosted) answering SMTP with
 * STARTTLS and a certificate for its name (but for a few self-hosted hosts: the hoster's certificate,
 * or no STARTTLS), PTR records for the MX addresses (mostly forward-confirmed), MTA-STS on 10% of the
 * domains (policy over HTTPS), TLS-RPT on ~14%, DANE TLSA 3 1 1 on 5 of the 100 provider hosts and
 * on some self-hosted ones, BIMI on ~3% (SVG Tiny PS logo, most with a VMC), and DNSSEC: a test root
 * (its DS is the worker's trust anchor), the `example` TLD, 15% of the domains and the DANE
 * providers' zones signed, every other zone an unsigned delegation. Nothing a check connects to
 * leaves the machine, and no scan waits on a timeout: every question is answered and every host listens.
 *
 * Processes, each on its own event loop, their CPU reported beside the worker's:
 *   - the DNS fixture (dns-fixture.process.ts): every record of the world, signed, on UDP and TCP;
 *   - the web fixtures (tls-fixture.process.ts): the TLS server of the certificate check and the HTTPS
 *     server of the MTA-STS policies and BIMI logos and certificates (`httpsPort`);
 *   - the SMTP fixture (smtp-fixture.process.ts): every MX host, on 0.0.0.0 at `smtpPort`;
 *   - the scanner worker (scan-worker.process.ts, sections 1-3), with `--expose-gc`;
 * and section 4 runs here against the Postgres and Redis servers. This process makes the test CA and
 * every certificate (fixture-certs.ts) and hands them out over IPC, with the DANE records' digests to
 * the DNS child, which makes the DNSSEC keys and reports the root's DS for the worker.
 *
 *   pnpm --filter @sendwell/bench bench:scanner
 *   BENCH_SCANS=2000 BENCH_SOAK_SCANS=10000 BENCH_CONCURRENCY=50 BENCH_COMPARE_CONCURRENCY=200 BENCH_SOAK_CONCURRENCY=200
 *   BENCH_PEER_EVALUATIONS=3000 BENCH_SWEEP_DOMAINS=1000000 BENCH_CPU_PROF=1
 * (the defaults; BENCH_CONCURRENCY, production's SCANNER_CONCURRENCY default, is the one judged, sections 1
 * and 3; section 1 is measured again at BENCH_COMPARE_CONCURRENCY, 0 to skip, and every check's status
 * counts of the two runs are compared: a share more than 2 percentage points apart fails the run, exit 1;
 * a section set to 0 is skipped, shown as such in the summary and not judged). Experiments:
 * BENCH_DOMAINS (the world's size), BENCH_SHARED_CACHE=0, BENCH_DNS_SOCKETS=n (the scans' UDP sockets).
 * BENCH_SMOKE=1 (lib/smoke.ts): every section at tiny sizes (a world of 30 domains, 40 scans, a soak
 * of 40 sampled every 10, 20 peer evaluations, 200 domains swept); verdicts printed, never failing.
 *
 * Section 1 also prints what the seven second-depth checks reported beside what the world holds
 * (a disagreement names the domain), each check's own time, the DNS attempts that timed out, the
 * worker's event-loop delay and the UDP bytes left unread at the fixture's and the worker's sockets:
 * where a scan's time goes when it is slow.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createBenchCa, issueMxCertificates, issueWebCertificates } from './fixture-certs.js';
import { planWorld } from './fixture-zones.js';
import { formatVerdict, isSkipped, skipped, type Verdict } from './report.js';
import { sweepBench } from './sweep.js';
import { loadAverage } from '../lib/processes.js';
import { RESULTS_DIR, sized, SMOKE, smokeResult } from '../lib/smoke.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const BENCH = fileURLToPath(new URL('..', import.meta.url));
const DOMAINS = sized('BENCH_DOMAINS', 1_000, 30);
const SWEEP_DOMAINS = sized('BENCH_SWEEP_DOMAINS', 1_000_000, 200);
const SWEEP_BATCH = sized('BENCH_SWEEP_BATCH', 1_000, 50);
const SWEEP_USERS = sized(null, 4_000, 20);

function child(script: string, env: Record<string, string>, execArgv: string[] = []): ChildProcess {
  return fork(join(HERE, script), [], {
    cwd: BENCH,
    execArgv: ['--import', 'tsx', ...execArgv],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function message<T>(proc: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: { type: string } & T) => {
      if (msg.type !== type) return;
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      resolve(msg);
    };
    const onExit = (code: number | null, signal: string | null) => reject(new Error(`child exited (${code ?? signal}) before "${type}"`));
    proc.on('message', onMessage);
    proc.once('exit', onExit);
  });
}

/** A fixture child's counters, asked after the worker is done (null when it is gone). */
async function stats<T>(proc: ChildProcess): Promise<T | null> {
  if (!proc.connected) return null;
  const answer = message<T>(proc, 'stats');
  proc.send({ type: 'stats' });
  return answer.catch(() => null);
}

console.log(`scanner bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}, load average ${loadAverage()}`);
const verdicts: Verdict[] = [];
const results: Record<string, unknown> = { date: new Date().toISOString(), cores: cpus().length };
const children: ChildProcess[] = [];
const stop = () => children.forEach((c) => c.connected && c.disconnect());
process.on('SIGINT', () => {
  children.forEach((c) => c.kill('SIGTERM'));
  process.exit(130);
});

try {
  // The DNS child starts at once (its keys and signatures take a while) and waits for the DANE digests.
  const dns = child('dns-fixture.process.ts', { BENCH_DOMAINS: String(DOMAINS) });
  children.push(dns);
  const dnsReady = message<{ port: number; names: number; signatures: number; trustAnchor: string; buildMs: number }>(dns, 'ready');
  const certStart = performance.now();
  const plan = planWorld(DOMAINS);
  const ca = await createBenchCa();
  const mxCerts = await issueMxCertificates(ca, plan);
  // The DNS child signs the world while the web certificates are made.
  dns.send({ tlsa: mxCerts.tlsa });
  const webCerts = await issueWebCertificates(ca, plan);
  const certs = { ...mxCerts, ...webCerts };
  const caFile = join(mkdtempSync(join(tmpdir(), 'bench-scanner-')), 'ca.pem');
  writeFileSync(caFile, ca.cert);
  console.log(
    `certificates: ${certs.web.length + Object.keys(certs.mx).length + certs.marks} issued by the bench CA in ${((performance.now() - certStart) / 1000).toFixed(1)} s ` +
      `(${certs.web.length} web, ${Object.keys(certs.mx).length} MX, ${certs.marks} Verified Mark Certificates); ${Object.keys(certs.tlsa).length} MX hosts get TLSA records`,
  );

  const tls = child('tls-fixture.process.ts', {});
  children.push(tls);
  const tlsReady = message<{ port: number; httpsPort: number; httpsHosts: number }>(tls, 'ready');
  tls.send({ groups: certs.web, https: certs.https });
  const smtp = child('smtp-fixture.process.ts', {});
  children.push(smtp);
  const smtpReady = message<{ port: number; hosts: number; certificates: number }>(smtp, 'ready');
  smtp.send({ certificates: certs.mx, hosts: certs.smtpHosts });
  const [dnsFixture, tlsFixture, smtpFixture] = await Promise.all([dnsReady, tlsReady, smtpReady]);
  console.log(
    `fixtures: DNS 127.0.0.1:${dnsFixture.port} (pid ${dns.pid}, ${dnsFixture.names} names, ${dnsFixture.signatures} RRSIGs made in ${(dnsFixture.buildMs / 1000).toFixed(1)} s, 4 MB receive buffer), ` +
      `TLS 127.0.0.1:${tlsFixture.port} and HTTPS 127.0.0.1:${tlsFixture.httpsPort} (pid ${tls.pid}, ${certs.web.length} certificates, ${tlsFixture.httpsHosts} MTA-STS and BIMI hosts), ` +
      `SMTP 0.0.0.0:${smtpFixture.port} (pid ${smtp.pid}, ${smtpFixture.hosts} MX hosts, ${smtpFixture.certificates} certificates)`,
  );
  console.log(`trust anchor (the test root's DS): ${dnsFixture.trustAnchor}`);

  const profileDir = join(BENCH, 'results', 'profiles');
  const profiling = !SMOKE && process.env.BENCH_CPU_PROF === '1';
  if (profiling) mkdirSync(profileDir, { recursive: true });
  const worker = child(
    'scan-worker.process.ts',
    {
      BENCH_DNS_PORT: String(dnsFixture.port),
      BENCH_DNS_PID: String(dns.pid),
      BENCH_TLS_PORT: String(tlsFixture.port),
      BENCH_HTTPS_PORT: String(tlsFixture.httpsPort),
      BENCH_TLS_PID: String(tls.pid),
      BENCH_SMTP_PORT: String(smtpFixture.port),
      BENCH_SMTP_PID: String(smtp.pid),
      BENCH_TRUST_ANCHOR: dnsFixture.trustAnchor,
      BENCH_CA_FILE: caFile,
      BENCH_DOMAINS: String(DOMAINS),
    },
    ['--expose-gc', ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
  );
  children.push(worker);
  const { result } = await message<{ result: Record<string, unknown> & { verdicts: Verdict[] } }>(worker, 'result');
  verdicts.push(...result.verdicts);
  Object.assign(results, result);
  await new Promise((resolve) => (worker.exitCode === null ? worker.once('exit', resolve) : resolve(undefined)));
  const [dnsStats, webStats, smtpStats] = await Promise.all([
    stats<{ queries: number }>(dns),
    stats<{ httpsRequests: number }>(tls),
    stats<{ connections: number; tlsSessions: number; unknownAddress: number }>(smtp),
  ]);
  console.log(
    `\nfixtures over the whole run: DNS ${dnsStats?.queries ?? '?'} queries; HTTPS ${webStats?.httpsRequests ?? '?'} requests; ` +
      `SMTP ${smtpStats?.connections ?? '?'} connections, ${smtpStats?.tlsSessions ?? '?'} STARTTLS sessions, ${smtpStats?.unknownAddress ?? '?'} to an address no MX host has`,
  );
  results.fixtures = { dns: dnsStats, https: webStats, smtp: smtpStats };
  stop();

  if (SWEEP_DOMAINS > 0) {
    const sweep = await sweepBench({ domains: SWEEP_DOMAINS, users: SWEEP_USERS, batch: SWEEP_BATCH });
    verdicts.push(sweep.verdict);
    results.sweep = sweep.figures;
  } else {
    console.log('\n[4] scheduler: skipped (BENCH_SWEEP_DOMAINS=0)');
    verdicts.push(skipped('domains claimed + enqueued per second', 'BENCH_SWEEP_DOMAINS=0'));
  }

  console.log('\nsummary:');
  for (const v of verdicts) console.log(`  ${formatVerdict(v)}`);
  console.log(`  load average at the end: ${loadAverage()}`);
  const failed = verdicts.filter((v) => v.required && !isSkipped(v) && !v.pass);
  // Smoke mode judges no target (lib/smoke.ts): the misses are printed above.
  if (failed.length > 0 && !SMOKE) {
    console.log(`  FAILED: ${failed.map((v) => v.name).join('; ')}`);
    process.exitCode = 1;
  }
  results.verdicts = verdicts;
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'scanner.json'), `${JSON.stringify(results, null, 2)}\n`);
  const full = results.fullScan as { scans: number; scansPerSecond: number; cpuMsPerScan: number; dnsQueriesPerScan: number } | undefined;
  const soak = results.soak as { samples: unknown[] } | undefined;
  const peer = results.peer as { ours: { perSecond: number }; mailauth: { perSecond: number } } | undefined;
  const sweep = results.sweep as { queued: number; perSecond: number } | undefined;
  smokeResult('scanner', {
    counts: {
      'full scans': full?.scans ?? 0,
      'scans per second': full?.scansPerSecond ?? 0,
      'CPU ms per scan': full?.cpuMsPerScan ?? 0,
      'DNS queries per scan': full?.dnsQueriesPerScan ?? 0,
      'soak memory samples': soak?.samples.length ?? 0,
      'sendwell SPF+DMARC per second': peer?.ours.perSecond ?? 0,
      'mailauth SPF+DMARC per second': peer?.mailauth.perSecond ?? 0,
      'domains swept': sweep?.queued ?? 0,
      'swept per second': sweep?.perSecond ?? 0,
    },
  });
} finally {
  stop();
}
