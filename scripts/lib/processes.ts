import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

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

const COLOURS = [36, 32, 33, 35, 34, 96, 92, 93];

/**
 * Runs child processes with their output prefixed by name, and stops them together.
 * Children get their own process group: a Ctrl-C in the terminal reaches only this supervisor,
 * which then sends each child one SIGTERM. (Our services treat a second signal as "exit now", so
 * letting the terminal's SIGINT reach them as well would cut their graceful shutdown short.)
 */
export class Supervisor {
  private readonly running = new Map<string, ChildProcess>();
  private readonly width: number;
  private stopping = false;

  constructor(
    names: string[],
    private readonly onUnexpectedExit: (exit: Exit) => void,
    private readonly colour = Boolean(process.stdout.isTTY),
  ) {
    this.width = Math.max(...names.map((n) => n.length));
    // Last resort if this process dies without stopping them (an uncaught error): no orphans.
    process.once('exit', () => {
      for (const child of this.running.values()) killGroup(child, 'SIGKILL');
    });
  }

  start(spec: ProcessSpec, index: number): void {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.running.set(spec.name, child);
    const prefix = this.prefix(spec.name, index);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix} ${line}\n`));
    }
    child.once('error', (error) => process.stdout.write(`${prefix} could not start: ${error.message}\n`));
    child.once('exit', (code, signal) => {
      this.running.delete(spec.name);
      if (!this.stopping) this.onUnexpectedExit({ name: spec.name, code, signal });
    });
  }

  isRunning(name: string): boolean {
    return this.running.has(name);
  }

  /** SIGTERM to every child, then SIGKILL to whatever is left after the grace period. Returns the names killed. */
  async stopAll(graceMs: number): Promise<string[]> {
    this.stopping = true;
    const children = [...this.running.entries()];
    const exits = children.map(([, child]) => new Promise<void>((resolve) => child.once('exit', () => resolve())));
    for (const [, child] of children) child.kill('SIGTERM');
    const timedOut = await Promise.race([
      Promise.all(exits).then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref()),
    ]);
    if (!timedOut) return [];
    const killed = [...this.running.keys()];
    for (const child of this.running.values()) killGroup(child, 'SIGKILL');
    await Promise.all(exits);
    return killed;
  }

  private prefix(name: string, index: number): string {
    const label = `${name.padEnd(this.width)} |`;
    return this.colour ? `\x1b[${COLOURS[index % COLOURS.length]}m${label}\x1b[0m` : label;
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
