/**
 * The scanner from the command line, without the database:
 *   pnpm scan <domain> [--json]   one full scan: every check, the status and the score
 *   pnpm scan --spf-eval          JSON lines {ip, sender, helo} on stdin → {result, explanation} (RFC 7208 check_host)
 * Settings (DNS_SERVERS, DNSBL_*_ZONES, SCAN_TLS_PORT, ...) come from the environment through env.ts.
 */
import { createInterface } from 'node:readline';
import { loadEnvOrExit } from '@sendwell/server-kit';
import { checkHost } from './checks/spf/evaluate.js';
import { closeSharedDnsTransport } from './dns/dns-transport.js';
import { closeSharedTimingTransport } from './dns/timing-transport.js';
import { createResolver } from './dns/resolver.js';
import { loadEnv, scanConfigFromEnv, type Env } from './env.js';
import { checksRegistry } from './scan/checks-registry.js';
import { runScan, type ScanOutcome } from './scan/run-scan.js';

const USAGE = 'usage: pnpm scan <domain> [--json] [--selector <dkim selector>]...\n       pnpm scan --spf-eval < lines.jsonl\n';

export interface CliArgs {
  mode: 'scan' | 'spf-eval' | 'help';
  domain?: string;
  json: boolean;
  selectors: string[];
}

export function parseArgs(argv: string[]): CliArgs | { error: string } {
  const args: CliArgs = { mode: 'scan', json: false, selectors: [] };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') args.json = true;
    else if (arg === '--spf-eval') args.mode = 'spf-eval';
    else if (arg === '--help' || arg === '-h') args.mode = 'help';
    else if (arg === '--selector') {
      const value = argv[++i];
      if (!value) return { error: '--selector needs a value' };
      args.selectors.push(value);
    } else if (arg.startsWith('-')) return { error: `unknown option ${arg}` };
    else positional.push(arg);
  }
  if (args.mode === 'scan') {
    if (positional.length !== 1) return { error: 'give exactly one domain' };
    args.domain = positional[0];
  }
  return args;
}

function newResolver(env: Env) {
  return createResolver({ servers: env.DNS_SERVERS, timeoutMs: env.DNS_TIMEOUT_MS });
}

const clip = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

/** The readable form: one row per check, then the overall status and the score. */
export function formatTable(domain: string, outcome: ScanOutcome): string {
  const rows = Object.values(outcome.checks).map((c) => [c.type, c.status, clip(c.message.replace(/\s+/g, ' '), 90)]);
  const widths = [0, 1].map((col) => Math.max(col === 0 ? 5 : 6, ...rows.map((r) => r[col]!.length)));
  const line = (r: string[]) => `${r[0]!.padEnd(widths[0]!)}  ${r[1]!.padEnd(widths[1]!)}  ${r[2]}`;
  const w = outcome.score.factors.weightedScores;
  return [
    `Scan of ${domain} (${outcome.profile === 'mail' ? 'mail domain' : outcome.profile === 'null_mx' ? 'null MX: takes no mail' : 'parked: no mail'})`,
    '',
    line(['check', 'status', 'message']),
    line(['-'.repeat(widths[0]!), '-'.repeat(widths[1]!), '-'.repeat(7)]),
    ...rows.map(line),
    '',
    `status: ${outcome.status}`,
    `score:  ${outcome.score.score}/100 (email authentication ${w.emailAuthentication}/40, security and deliverability ${w.securityDeliverability}/35, configuration health ${w.configurationHealth}/25)`,
    `dns:    ${outcome.dnsQueries} queries, ${outcome.durationMs} ms`,
    '',
  ].join('\n');
}

async function scanCommand(env: Env, args: CliArgs): Promise<number> {
  const domain = args.domain!.trim().toLowerCase().replace(/\.$/, '');
  const outcome = await runScan(domain, {
    resolver: newResolver(env),
    config: scanConfigFromEnv(env),
    checks: checksRegistry,
    dkimSelectors: args.selectors,
    checkDeadlineMs: env.SCAN_CHECK_DEADLINE_MS,
  });
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ domain, profile: outcome.profile, status: outcome.status, score: outcome.score.score, factors: outcome.score.factors, checks: outcome.checks, dnsSnapshot: outcome.snapshot, dnsQueries: outcome.dnsQueries, durationMs: outcome.durationMs }, null, 2)}\n`);
  } else {
    process.stdout.write(formatTable(domain, outcome));
  }
  return 0;
}

interface SpfEvalInput {
  ip: string;
  sender: string;
  helo: string;
}

function parseSpfLine(line: string): SpfEvalInput | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  const v = value as Partial<SpfEvalInput> | null;
  if (!v || typeof v.ip !== 'string' || typeof (v.sender ?? '') !== 'string' || typeof (v.helo ?? '') !== 'string') return 'expected {"ip", "sender", "helo"}';
  if (!v.sender && !v.helo) return 'a sender or a helo is needed';
  return { ip: v.ip, sender: v.sender ?? '', helo: v.helo ?? '' };
}

async function spfEvalCommand(env: Env): Promise<number> {
  let bad = 0;
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    const input = parseSpfLine(line);
    if (typeof input === 'string') {
      bad++;
      // One output line per input line, so a caller can pair them; `none` with the input error as explanation.
      process.stdout.write(`${JSON.stringify({ result: 'none', explanation: `invalid input line: ${input}` })}\n`);
      continue;
    }
    try {
      // A resolver per evaluation: each line is its own check_host, with its own cache. The domain is
      // the sender's, or the HELO name for a null sender (RFC 7208 §2.4), which checkHost derives.
      const { result, explanation } = await checkHost({ ip: input.ip, sender: input.sender, helo: input.helo }, newResolver(env));
      process.stdout.write(`${JSON.stringify({ result, explanation })}\n`);
    } catch (error) {
      bad++;
      process.stdout.write(`${JSON.stringify({ result: 'none', explanation: `invalid input line: ${(error as Error).message}` })}\n`);
    }
  }
  return bad > 0 ? 1 : 0;
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if ('error' in args) {
    process.stderr.write(`${args.error}\n${USAGE}`);
    return 2;
  }
  if (args.mode === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const env = loadEnvOrExit(() => loadEnv());
  try {
    return args.mode === 'spf-eval' ? await spfEvalCommand(env) : await scanCommand(env, args);
  } finally {
    await Promise.all([closeSharedDnsTransport(), closeSharedTimingTransport()]);
  }
}

const code = await main(process.argv.slice(2));
// Exit once stdout is flushed rather than wait for probe sockets and timers of abandoned checks to wind down.
process.stdout.write('', () => process.exit(code));
