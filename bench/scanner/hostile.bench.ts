/**
 * Scanner benchmark, hostile section (issue 24): what a domain built to hurt the scanner costs it,
 * next to an ordinary signed domain. Zones in hostile-zones.ts: KeyTrap as the paper builds it
 * (colliding key tags, 3071-bit RSA exponents), the costliest zone the validator's bounds still
 * allow, and records padded with 30,000 spaces where super-linear expressions used to be.
 *
 * For each kind, BENCH_HOSTILE_COPIES (5) full scans with all thirteen checks, one at a time, in this
 * process (the DNS fixture in a child): the CPU each costs, its wall time, the largest event-loop
 * delay while it ran (what every other scan on the process waits), and what the DNSSEC check said.
 * The MX, HTTPS and TLS ports are closed: the section measures what the domain's DNS costs.
 * It also prints the cost the KeyTrap zone would have without the bounds (keys × signatures ×
 * one measured verification), and fails (exit 1) when a hostile scan costs more than
 * HOSTILE_CPU_LIMIT_MS (250) of CPU or blocks the event loop for more than HOSTILE_DELAY_LIMIT_MS (100).
 *
 *   pnpm --filter @sendwell/bench bench hostile
 *   BENCH_SMOKE=1   (lib/smoke.ts) one domain of each kind; the limits printed, never failing
 */
import { fork } from 'node:child_process';
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseTrustAnchors } from '../../services/scanner/src/checks/dnssec/dnssec.check.js';
import { DNSSEC_LIMITS } from '../../services/scanner/src/checks/shared/dnssec/budget.js';
import type { ScanConfig } from '../../services/scanner/src/checks/types.js';
import { createResolver } from '../../services/scanner/src/dns/resolver.js';
import { checksRegistry } from '../../services/scanner/src/scan/checks-registry.js';
import { runScan } from '../../services/scanner/src/scan/run-scan.js';
import { loadAverage } from '../lib/processes.js';
import { SMOKE, smokeResult } from '../lib/smoke.js';
import { HOSTILE_KINDS, PADDING, type HostileKind } from './hostile-zones.js';
import { formatVerdict, judge, percentile, type Verdict } from './report.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const CPU_LIMIT_MS = Number(process.env.HOSTILE_CPU_LIMIT_MS ?? 250);
const DELAY_LIMIT_MS = Number(process.env.HOSTILE_DELAY_LIMIT_MS ?? 100);

interface Ready {
  type: 'ready';
  port: number;
  trustAnchor: string;
  domains: Record<HostileKind, string[]>;
}

console.log(`scanner bench, hostile section: node ${process.version}, load average ${loadAverage()}`);
const built = performance.now();
const dns = fork(join(HERE, 'hostile-dns.process.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const world = await new Promise<Ready>((resolve, reject) => {
  dns.once('message', (message: Ready) => resolve(message));
  dns.once('exit', (code) => reject(new Error(`the DNS fixture exited (${code})`)));
});
console.log(`world: ${world.domains.normal.length} domains of each kind, built and signed in ${((performance.now() - built) / 1000).toFixed(1)} s`);

const config: ScanConfig = {
  dnsblIpZones: ['bl.fixture.test'],
  dnsblDomainZones: ['dbl.fixture.test'],
  // Closed ports: the section measures what the domain's DNS costs, not its servers.
  tlsPort: 1,
  httpsPort: 1,
  smtpPort: 1,
  heloName: 'scanner.sendwell.test',
  authoritativeDnsPort: world.port,
  timeoutMs: 5_000,
  outbound: { allowLoopback: true },
  dnssecTrustAnchors: parseTrustAnchors(world.trustAnchor),
};

interface KindFigures {
  cpuMs: number[];
  wallMs: number[];
  maxDelayMs: number;
  dnssec: string[];
}

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();

async function scanOnce(domain: string): Promise<{ cpuMs: number; wallMs: number; maxDelayMs: number; dnssec: string }> {
  const resolver = createResolver({ servers: [{ host: '127.0.0.1', port: world.port }], timeoutMs: 3_000, retries: 1 });
  delay.reset();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const outcome = await runScan(domain, { resolver, config, checks: checksRegistry, dkimSelectors: [], checkDeadlineMs: 60_000 });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const dnssec = outcome.checks.dnssec;
  const first = (dnssec.details as { findings?: Array<{ code: string }> }).findings?.[0]?.code;
  return { cpuMs: (used.user + used.system) / 1000, wallMs, maxDelayMs: delay.max / 1e6, dnssec: `${dnssec.status}${first ? ` ${first}` : ''}` };
}

// One scan to warm the code paths (JIT, the root's and TLD's keys), not counted.
await scanOnce(world.domains.normal[0] as string);

const figures = {} as Record<HostileKind, KindFigures>;
for (const kind of HOSTILE_KINDS) {
  const entry: KindFigures = { cpuMs: [], wallMs: [], maxDelayMs: 0, dnssec: [] };
  for (const domain of world.domains[kind]) {
    const scan = await scanOnce(domain);
    entry.cpuMs.push(scan.cpuMs);
    entry.wallMs.push(scan.wallMs);
    entry.maxDelayMs = Math.max(entry.maxDelayMs, scan.maxDelayMs);
    entry.dnssec.push(scan.dnssec);
  }
  figures[kind] = entry;
}
delay.disable();

/** One verification with a KeyTrap key, as the validator made before it refused them. */
function trapVerificationMs(): number {
  const modulus = randomBytes(384);
  modulus[0] = (modulus[0] as number) | 0x80;
  modulus[383] = (modulus[383] as number) | 1;
  const exponent = randomBytes(384);
  exponent[0] = ((exponent[0] as number) & 0x7f) | 0x40;
  exponent[383] = (exponent[383] as number) | 1;
  const key = createPublicKey({ key: { kty: 'RSA', n: modulus.toString('base64url'), e: exponent.toString('base64url') }, format: 'jwk' });
  const signature = randomBytes(384);
  signature[0] = 1;
  const started = performance.now();
  for (let i = 0; i < 3; i++) verify('sha256', Buffer.from('rrset'), key, signature);
  return (performance.now() - started) / 3;
}

const normal = figures.normal;
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);
console.log(`\n${'kind'.padEnd(9)} ${'CPU ms (median, max)'.padStart(22)} ${'wall ms (median)'.padStart(17)} ${'max loop delay ms'.padStart(18)} ${'CPU vs normal'.padStart(14)}  DNSSEC check`);
for (const kind of HOSTILE_KINDS) {
  const entry = figures[kind];
  const ratio = median(entry.cpuMs) / median(normal.cpuMs);
  console.log(
    `${kind.padEnd(9)} ${`${median(entry.cpuMs).toFixed(1)}, ${Math.max(...entry.cpuMs).toFixed(1)}`.padStart(22)} ${median(entry.wallMs).toFixed(1).padStart(17)} ${entry.maxDelayMs.toFixed(1).padStart(18)} ${`${ratio.toFixed(2)}×`.padStart(14)}  ${[...new Set(entry.dnssec)].join('; ')}`,
  );
}
const perVerify = trapVerificationMs();
const rrsets = 4; // SOA, MX, TXT and the DMARC TXT, each under 60 trap signatures
const unbounded = 61 * 61 * rrsets * perVerify;
console.log(
  `\nwithout the bounds, the KeyTrap zone: 61 keys of one tag × 61 signatures × ${rrsets} RRsets × ${perVerify.toFixed(2)} ms a verification (measured now) ≈ ${(unbounded / 1000).toFixed(0)} s of blocked event loop per scan;` +
    ` with them: at most ${DNSSEC_LIMITS.verificationsPerScan} verifications a scan, RSA exponents over ${DNSSEC_LIMITS.rsaExponentBits} bits refused.`,
);
console.log(`records padded with ${PADDING.toLocaleString('en')} spaces and tabs: SPF, DMARC, MTA-STS and TLS-RPT (the spaces row).`);

const verdicts: Verdict[] = [];
for (const kind of HOSTILE_KINDS.filter((kind) => kind !== 'normal')) {
  verdicts.push({ ...judge(`${kind}: CPU of the costliest scan`, Math.max(...figures[kind].cpuMs), CPU_LIMIT_MS, '<=', ' ms'), required: true });
  verdicts.push({ ...judge(`${kind}: largest event-loop delay`, figures[kind].maxDelayMs, DELAY_LIMIT_MS, '<=', ' ms'), required: true });
}
dns.disconnect();
console.log(`\nsummary (load average ${loadAverage()}):`);
for (const verdict of verdicts) console.log(`  ${formatVerdict(verdict)}`);
smokeResult('hostile', {
  counts: Object.fromEntries(HOSTILE_KINDS.flatMap((kind) => [[`${kind} scans`, figures[kind].cpuMs.length], [`${kind} CPU ms (median)`, median(figures[kind].cpuMs)]])),
  values: { 'KeyTrap verification ms': perVerify },
  conditions: { 'every scan gave a DNSSEC verdict': HOSTILE_KINDS.every((kind) => figures[kind].dnssec.length > 0 && figures[kind].dnssec.every(Boolean)) },
});
// The limits are targets: smoke mode prints them but does not judge them.
process.exit(!SMOKE && verdicts.some((verdict) => verdict.required && !verdict.pass) ? 1 : 0);
