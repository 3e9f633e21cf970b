/**
 * Reads the `.cpuprofile` files a `--cpu-prof` run leaves and answers where the time went: self
 * time by package (or by file of our own code) and the heaviest functions, as shares of the
 * profile's busy (non-idle) time. Usable alone: `tsx domains/profile-summary.ts <dir>...`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  dir: string;
  busyMs: number;
  idleMs: number;
  byArea: Array<[string, number]>;
  byFunction: Array<[string, number]>;
}

const SPECIAL = new Set(['(garbage collector)', '(program)', '(idle)', '(root)']);

/** node_modules/.pnpm/<pkg>@<v>/node_modules/<name>/... → <name>; our own code → its path from the repository. */
function areaOf(url: string, functionName: string): string {
  if (SPECIAL.has(functionName)) return functionName;
  if (!url) return '(native)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(services|packages)\/([^/]+)\/src\/(.*)$/.exec(url);
  return own ? `${own[1]}/${own[2]}/${own[3]}` : url.replace(/^file:\/\//, '');
}

function summarise(dir: string, files: string[]): ProfileSummary {
  const area = new Map<string, number>();
  const fn = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const node = byId.get(id)!;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const { functionName, url, lineNumber } = node.callFrame;
      if (functionName === '(idle)') {
        idle += ms;
        return;
      }
      busy += ms;
      const a = areaOf(url, functionName);
      area.set(a, (area.get(a) ?? 0) + ms);
      const f = `${functionName || '(anonymous)'} ${a}:${lineNumber + 1}`;
      fn.set(f, (fn.get(f) ?? 0) + ms);
    });
  }
  const top = (m: Map<string, number>, n: number) => [...m.entries()].sort((x, y) => y[1] - x[1]).slice(0, n);
  return { dir, busyMs: busy, idleMs: idle, byArea: top(area, 14), byFunction: top(fn, 14) };
}

/** One summary per directory, over its main-thread profiles (tsx's loader thread is `.1.` and idle once loaded). */
export function summariseProfiles(dirs: string[]): ProfileSummary[] {
  return dirs.map((dir) => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && /\.0\.\d+\.cpuprofile$/.test(f));
    return summarise(dir, files);
  });
}

export function printProfileSummaries(summaries: ProfileSummary[], requests?: number): void {
  for (const s of summaries) {
    const perRequest = requests ? `, ${((s.busyMs / requests) * 1000).toFixed(0)} µs per request over ${requests} requests` : '';
    console.log(`\n  ${s.dir}: busy ${(s.busyMs / 1000).toFixed(1)} s, idle ${(s.idleMs / 1000).toFixed(1)} s${perRequest}`);
    console.log('    self time by area:');
    for (const [name, ms] of s.byArea) console.log(`      ${((ms / s.busyMs) * 100).toFixed(1).padStart(5)} %  ${name}`);
    console.log('    heaviest functions (self time):');
    for (const [name, ms] of s.byFunction) console.log(`      ${((ms / s.busyMs) * 100).toFixed(1).padStart(5)} %  ${name}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printProfileSummaries(summariseProfiles(process.argv.slice(2)));
}
