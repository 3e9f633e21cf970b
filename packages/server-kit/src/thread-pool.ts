/**
 * CPU-bound work on worker threads, so it never holds a service's event loop: a fixed number of
 * threads, started on first use, each given one task at a time, the rest queued in order. A thread
 * that dies (or runs past the task timeout, and is terminated) fails its task and is replaced.
 *
 * The thread module answers each message it is posted with one message: the result, or
 * `{ error: message }` when the task failed (the task's promise rejects with that message).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What a thread posts for a task that failed. */
export interface ThreadFailure {
  error: string;
}

export interface ThreadPoolOptions {
  /** Threads at most; they start as tasks arrive. */
  size: number;
  /** The thread module compiled (`x-thread.js` beside the bundle), used when it exists. */
  compiled: URL;
  /** The TypeScript thread module, run through tsx's loader when there is no compiled one (tests, `pnpm dev`). */
  source: URL;
  /** Names the pool in errors: "<name> thread exited with code 1", "the <name> pool is closed". */
  name: string;
  /**
   * A task running longer than this has its thread terminated and fails; none by default. Counted
   * from dispatch, so a thread's start (from source, the loader too) is part of its first task.
   */
  taskTimeoutMs?: number;
}

interface Task<Request, Result> {
  request: Request;
  resolve(result: Result): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

let tsxApi: string | undefined;

/** tsx's ESM API by path: its package exports give `require` the CommonJS build, whose register() misplaces its loader. */
function tsxApiUrl(): string {
  tsxApi ??= pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  return tsxApi;
}

function startThread(compiled: URL, source: URL): Worker {
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled);
  return new Worker(`import(${JSON.stringify(tsxApiUrl())}).then(({ register }) => { register(); return import(${JSON.stringify(source.href)}); });`, { eval: true });
}

function isFailure(reply: unknown): reply is ThreadFailure {
  return typeof reply === 'object' && reply !== null && typeof (reply as { error?: unknown }).error === 'string';
}

export class ThreadPool<Request, Reply> {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Task<Request, Exclude<Reply, ThreadFailure>>>();
  private readonly queue: Task<Request, Exclude<Reply, ThreadFailure>>[] = [];
  private started = 0;
  private closed = false;

  constructor(private readonly options: ThreadPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new Error(`a thread pool needs at least one thread, not ${options.size}`);
  }

  /** Runs one task on the next free thread; rejects with the thread's error message, or when the thread dies or times out. */
  run(request: Request): Promise<Exclude<Reply, ThreadFailure>> {
    if (this.closed) return Promise.reject(this.closedError());
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(this.closedError());
    await Promise.all([...this.idle, ...this.busy.keys()].map((worker) => worker.terminate()));
  }

  private closedError(): Error {
    return new Error(`the ${this.options.name} pool is closed`);
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.started < this.options.size ? this.spawn() : undefined);
      if (!worker) return;
      const task = this.queue.shift()!;
      this.busy.set(worker, task);
      worker.ref();
      const { taskTimeoutMs } = this.options;
      if (taskTimeoutMs !== undefined) {
        task.timer = setTimeout(() => {
          // The task fails now; the thread's 'exit' then counts it out and lets the queue move on.
          this.busy.delete(worker);
          task.reject(new Error(`${this.options.name} thread took longer than ${taskTimeoutMs} ms and was stopped`));
          void worker.terminate();
        }, taskTimeoutMs);
      }
      worker.postMessage(task.request);
    }
  }

  private spawn(): Worker {
    const worker = startThread(this.options.compiled, this.options.source);
    this.started += 1;
    worker.on('message', (reply: Reply) => {
      const task = this.busy.get(worker);
      // A reply racing its timeout: the thread is being terminated, so it is not idle again.
      if (!task) return;
      this.busy.delete(worker);
      clearTimeout(task.timer);
      if (isFailure(reply)) task.reject(new Error(reply.error));
      else task.resolve(reply as Exclude<Reply, ThreadFailure>);
      // An idle thread does not keep the process alive: a pool nobody closed never holds a script open.
      worker.unref();
      this.idle.push(worker);
      this.dispatch();
    });
    let gone = false;
    const lost = (error: Error) => {
      // 'error' is followed by 'exit': count the thread out once.
      if (gone) return;
      gone = true;
      const task = this.busy.get(worker);
      this.busy.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      this.started -= 1;
      if (task) {
        clearTimeout(task.timer);
        task.reject(this.closed ? this.closedError() : error);
      }
      if (!this.closed) this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`${this.options.name} thread exited with code ${code}`)));
    return worker;
  }
}
