import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { DEFAULT_RESTART_POLICY, RestartPolicy, type RestartPolicyOptions } from './restart-policy.js';

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface Exit {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SupervisorOptions {
  /** A service crashed too often (see RestartPolicyOptions) and is not restarted; the caller stops the rest. */
  onGiveUp(exit: Exit, crashesInWindow: number): void;
  /** The supervisor's own lines: why a service exited, when it restarts. */
  log(message: string): void;
  /** Each line a child prints, already prefixed with its name; stdout by default. */
  output?(line: string): void;
  colour?: boolean;
  policy?: Partial<RestartPolicyOptions>;
}

interface Supervised {
  spec: ProcessSpec;
  index: number;
  policy: RestartPolicy;
  child?: ChildProcess;
  startedAt: number;
  restartTimer?: NodeJS.Timeout;
}

const COLOURS = [36, 32, 33, 35, 34, 96, 92, 93];

/** "exit code 1" or "signal SIGKILL". */
export function describeExit({ code, signal }: Pick<Exit, 'code' | 'signal'>): string {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

/**
 * Runs child processes with their output prefixed by name, restarts one that exits with a growing
 * delay (RestartPolicy), and stops them together.
 * Children get their own process group: a Ctrl-C in the terminal reaches only this supervisor,
 * which then sends each child one SIGTERM. (Our services treat a second signal as "exit now", so
 * letting the terminal's SIGINT reach them as well would cut their graceful shutdown short.)
 */
export class Supervisor {
  private readonly services = new Map<string, Supervised>();
  private readonly width: number;
  private readonly policy: RestartPolicyOptions;
  private readonly output: (line: string) => void;
  private stopping = false;

  constructor(
    names: string[],
    private readonly options: SupervisorOptions,
  ) {
    this.width = Math.max(...names.map((n) => n.length));
    this.policy = { ...DEFAULT_RESTART_POLICY, ...options.policy };
    this.output = options.output ?? ((line) => process.stdout.write(`${line}\n`));
    // Last resort if this process dies without stopping them (an uncaught error): no orphans.
    process.once('exit', () => {
      for (const child of this.children()) killGroup(child, 'SIGKILL');
    });
  }

  start(spec: ProcessSpec, index: number): void {
    const service: Supervised = { spec, index, policy: new RestartPolicy(this.policy), startedAt: 0 };
    this.services.set(spec.name, service);
    this.spawn(service);
  }

  /** Running now (false while a crashed service waits for its restart). */
  isRunning(name: string): boolean {
    return this.services.get(name)?.child !== undefined;
  }

  /** The running process's id, for whoever needs to signal it (the chaos bench). */
  pid(name: string): number | undefined {
    return this.services.get(name)?.child?.pid;
  }

  /**
   * Cancels pending restarts, SIGTERM to every child, then SIGKILL to whatever is left after the
   * grace period. Returns the names killed.
   */
  async stopAll(graceMs: number): Promise<string[]> {
    this.stopping = true;
    for (const service of this.services.values()) clearTimeout(service.restartTimer);
    const children = this.children();
    const exits = children.map((child) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()))));
    for (const child of children) child.kill('SIGTERM');
    const timedOut = await Promise.race([
      Promise.all(exits).then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref()),
    ]);
    if (!timedOut) return [];
    const killed = [...this.services.values()].filter((s) => s.child).map((s) => s.spec.name);
    for (const child of this.children()) killGroup(child, 'SIGKILL');
    await Promise.all(exits);
    return killed;
  }

  private spawn(service: Supervised): void {
    const { spec } = service;
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    service.child = child;
    service.startedAt = Date.now();
    const prefix = this.prefix(spec.name, service.index);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => this.output(`${prefix} ${line}`));
    }
    let exited = false;
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (exited) return;
      exited = true;
      service.child = undefined;
      if (!this.stopping) this.onUnexpectedExit(service, { name: spec.name, code, signal });
    };
    child.once('exit', onExit);
    child.once('error', (error) => {
      this.output(`${prefix} could not start: ${error.message}`);
      // A process that never started emits no 'exit'.
      if (child.pid === undefined) onExit(null, null);
    });
  }

  private onUnexpectedExit(service: Supervised, exit: Exit): void {
    const now = Date.now();
    const upFor = `${((now - service.startedAt) / 1000).toFixed(1)} s`;
    const decision = service.policy.onExit(service.startedAt, now);
    const crashes = `${decision.crashesInWindow} crash${decision.crashesInWindow > 1 ? 'es' : ''} within ${this.policy.crashWindowMs / 1000} s`;
    if (decision.kind === 'give-up') {
      this.options.log(`${exit.name} exited (${describeExit(exit)}) after ${upFor}; ${crashes}: giving up`);
      this.options.onGiveUp(exit, decision.crashesInWindow);
      return;
    }
    this.options.log(`${exit.name} exited (${describeExit(exit)}) after ${upFor}; restarting in ${decision.delayMs / 1000} s (${crashes})`);
    service.restartTimer = setTimeout(() => {
      if (!this.stopping) this.spawn(service);
    }, decision.delayMs);
  }

  private children(): ChildProcess[] {
    return [...this.services.values()].flatMap((s) => (s.child ? [s.child] : []));
  }

  private prefix(name: string, index: number): string {
    const label = `${name.padEnd(this.width)} |`;
    return this.options.colour ? `\x1b[${COLOURS[index % COLOURS.length]}m${label}\x1b[0m` : label;
  }
}

/** Kills the child's whole process group (watch mode runs a grandchild), falling back to the child. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}
