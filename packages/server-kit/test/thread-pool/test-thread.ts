/** A thread for the ThreadPool tests: each request says what the task does. */
import { parentPort, threadId } from 'node:worker_threads';

export type TestRequest =
  | { op: 'sleep'; label: string; ms: number }
  | { op: 'throw'; message: string }
  | { op: 'die'; code: number }
  | { op: 'spin' };
export type TestReply = { label: string; threadId: number; seen: number; startedAt: number; endedAt: number } | { error: string };

let seen = 0;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

parentPort?.on('message', (request: TestRequest) => {
  seen += 1;
  try {
    if (request.op === 'sleep') {
      const startedAt = performance.timeOrigin + performance.now();
      // Blocks the thread, as real CPU work would.
      Atomics.wait(sleeper, 0, 0, request.ms);
      parentPort!.postMessage({ label: request.label, threadId, seen, startedAt, endedAt: performance.timeOrigin + performance.now() } satisfies TestReply);
    } else if (request.op === 'throw') {
      throw new Error(request.message);
    } else if (request.op === 'die') {
      process.exit(request.code);
    } else {
      for (;;) seen += 0;
    }
  } catch (error) {
    parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies TestReply);
  }
});
