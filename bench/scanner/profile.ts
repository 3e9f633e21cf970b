import { Session, type Profiler } from 'node:inspector';

/**
 * Where a worker's CPU goes: a V8 CPU profile taken around some work, its samples summed by where
 * the code lives (a check's folder, the DNS client, a library, Node itself, the garbage collector).
 * The profiler costs time of its own, so it runs in a pass of its own, never during the measured ones.
 */

export interface ProfileShare {
  where: string;
  percent: number;
}

/** A scanner source file's area (`check:spf`, `dns`, `scan`), else the package, else Node's own. */
export function areaOf(url: string, functionName: string): string {
  // Builtins and native code have no script: named by the function (JSON.parse, a RegExp, a crypto binding).
  if (!url) return functionName.startsWith('(') ? functionName : `native:${functionName || '(anonymous)'}`;
  const check = /\/services\/scanner\/src\/checks\/([^/]+)\//.exec(url);
  if (check) return `check:${check[1]}`;
  const scanner = /\/services\/scanner\/src\/([^/.]+)/.exec(url);
  if (scanner) return `scanner:${scanner[1]}`;
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return `pkg:${pkg[1]}`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  return '(other)';
}

/** Self time per area, in percent of the samples that were not idle, largest first. */
export function summarise(profile: Profiler.Profile): ProfileShare[] {
  const areaById = new Map(profile.nodes.map((node) => [node.id, areaOf(node.callFrame.url, node.callFrame.functionName)]));
  const counts = new Map<string, number>();
  let total = 0;
  for (const id of profile.samples ?? []) {
    const area = areaById.get(id) ?? '(other)';
    if (area === '(idle)') continue;
    counts.set(area, (counts.get(area) ?? 0) + 1);
    total++;
  }
  return [...counts.entries()].map(([where, n]) => ({ where, percent: total > 0 ? (n / total) * 100 : 0 })).sort((a, b) => b.percent - a.percent);
}

/** Runs `work` under the CPU profiler and returns where the time went. */
export async function profiled(work: () => Promise<void>): Promise<ProfileShare[]> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 500 });
  await post('Profiler.start');
  let failure: unknown = null;
  await work().catch((error: unknown) => (failure = error));
  const { profile } = await post<{ profile: Profiler.Profile }>('Profiler.stop');
  session.disconnect();
  if (failure !== null) throw failure;
  return summarise(profile);
}
