import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Supervisor, type Exit, type ProcessSpec } from './processes.js';
import type { RestartPolicyOptions } from './restart-policy.js';

const CRASHER = fileURLToPath(new URL('./fixtures/crasher.mjs', import.meta.url));

/** A supervisor of real child processes (fixtures/crasher.mjs), with what it logs and whom it gave up on. */
function supervise(policy: Partial<RestartPolicyOptions>) {
  const logs: string[] = [];
  const gaveUp: { exit: Exit; crashes: number }[] = [];
  const supervisor = new Supervisor(['crasher', 'steady'], {
    onGiveUp: (exit, crashes) => gaveUp.push({ exit, crashes }),
    log: (message) => logs.push(message),
    output: () => undefined,
    policy: { maxDelayMs: 5_000, stableAfterMs: 60_000, maxCrashes: 10, crashWindowMs: 60_000, initialDelayMs: 200, ...policy },
  });
  running.push(supervisor);
  return { supervisor, logs, gaveUp };
}

const dir = mkdtempSync(join(tmpdir(), 'supervisor-test-'));
let serial = 0;
/** A crasher's spec and the file its starts are written to. */
function crasher(
  name: string,
  options: { crashes?: number; lifeMs?: number; ignoreTerm?: boolean } = {},
): { spec: ProcessSpec; starts: () => { at: number; pid: number }[] } {
  const log = join(dir, `${name}-${serial++}.log`);
  return {
    spec: { name, command: process.execPath, args: [CRASHER, log, JSON.stringify(options)], cwd: dir, env: {} },
    starts: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8').trim().split('\n').map((line) => {
            const [at, pid] = line.split(' ').map(Number);
            return { at: at!, pid: pid! };
          })
        : [],
  };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const running: Supervisor[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stopAll(1_000)));
});

describe('Supervisor', { timeout: 20_000 }, () => {
  it('restarts a crashed service after 0.2, 0.4, 0.8 s, saying why, until it stays up', async () => {
    const { supervisor, logs, gaveUp } = supervise({ initialDelayMs: 200 });
    const service = crasher('crasher', { crashes: 3 });
    supervisor.start(service.spec, 0);
    await until(() => service.starts().length === 4 && supervisor.isRunning('crasher'));

    const at = service.starts().map((s) => s.at);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(200);
    expect(gaps[1]).toBeGreaterThanOrEqual(400);
    expect(gaps[2]).toBeGreaterThanOrEqual(800);
    expect(logs.filter((l) => l.startsWith('crasher exited (exit code 3)')).map((l) => /restarting in ([\d.]+) s/.exec(l)?.[1])).toEqual(['0.2', '0.4', '0.8']);
    expect(gaveUp).toEqual([]);
    expect(supervisor.pid('crasher')).toBe(service.starts()[3]!.pid);
  });

  it('restarts a service killed with SIGKILL within its first delay', async () => {
    const { supervisor, logs } = supervise({ initialDelayMs: 200 });
    const service = crasher('crasher', { crashes: 0 });
    supervisor.start(service.spec, 0);
    await until(() => service.starts().length === 1);
    const killedAt = Date.now();
    process.kill(supervisor.pid('crasher')!, 'SIGKILL');
    await until(() => service.starts().length === 2);

    expect(service.starts()[1]!.at - killedAt).toBeGreaterThanOrEqual(200);
    expect(supervisor.pid('crasher')).toBe(service.starts()[1]!.pid);
    expect(logs).toEqual([expect.stringMatching(/^crasher exited \(signal SIGKILL\) after [\d.]+ s; restarting in 0.2 s \(1 crash within 60 s\)$/)]);
  });

  it('gives up after repeated fast crashes and restarts nothing more', async () => {
    const { supervisor, logs, gaveUp } = supervise({ initialDelayMs: 50, maxCrashes: 3 });
    const service = crasher('crasher');
    const steady = crasher('steady', { crashes: 0 });
    supervisor.start(service.spec, 0);
    supervisor.start(steady.spec, 1);
    await until(() => gaveUp.length > 0);

    expect(gaveUp).toEqual([{ exit: { name: 'crasher', code: 3, signal: null }, crashes: 3 }]);
    expect(logs.at(-1)).toMatch(/^crasher exited \(exit code 3\) after [\d.]+ s; 3 crashes within 60 s: giving up$/);
    await sleep(300);
    expect(service.starts()).toHaveLength(3);
    expect(supervisor.isRunning('crasher')).toBe(false);
    // The others are left to the caller, which stops them all (start.ts).
    expect(supervisor.isRunning('steady')).toBe(true);
  });

  it('stops every service with SIGTERM and cancels a pending restart', async () => {
    const { supervisor, logs, gaveUp } = supervise({ initialDelayMs: 1_000 });
    const service = crasher('crasher');
    const steady = crasher('steady', { crashes: 0 });
    supervisor.start(service.spec, 0);
    supervisor.start(steady.spec, 1);
    await until(() => steady.starts().length === 1 && service.starts().length === 1 && !supervisor.isRunning('crasher'));
    const steadyPid = supervisor.pid('steady')!;

    expect(await supervisor.stopAll(5_000)).toEqual([]);
    expect(alive(steadyPid)).toBe(false);
    await sleep(1_300);
    expect(service.starts()).toHaveLength(1);
    expect(steady.starts()).toHaveLength(1);
    expect(logs).toHaveLength(1); // the crasher's first exit; the stop itself is no crash
    expect(gaveUp).toEqual([]);
  });

  it('kills a service that ignores SIGTERM once the grace period is over', async () => {
    const { supervisor } = supervise({});
    const stubborn = crasher('steady', { crashes: 0, ignoreTerm: true });
    supervisor.start(stubborn.spec, 0);
    await until(() => stubborn.starts().length === 1);
    const pid = supervisor.pid('steady')!;

    expect(await supervisor.stopAll(300)).toEqual(['steady']);
    expect(alive(pid)).toBe(false);
  });
});
