import { afterEach, describe, expect, it } from 'vitest';
import { ThreadPool } from '../src/thread-pool.js';
import type { TestReply, TestRequest } from './thread-pool/test-thread.js';

const pools: ThreadPool<TestRequest, TestReply>[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function pool(size: number, taskTimeoutMs?: number): ThreadPool<TestRequest, TestReply> {
  const created = new ThreadPool<TestRequest, TestReply>({
    size,
    // Never built: the pool falls back to the TypeScript module.
    compiled: new URL('./thread-pool/test-thread.js', import.meta.url),
    source: new URL('./thread-pool/test-thread.ts', import.meta.url),
    name: 'test',
    ...(taskTimeoutMs === undefined ? {} : { taskTimeoutMs }),
  });
  pools.push(created);
  return created;
}

const sleep = (label: string, ms = 1): TestRequest => ({ op: 'sleep', label, ms });

describe('ThreadPool', () => {
  it('runs queued tasks in the order they were given, one thread at a time', async () => {
    const one = pool(1);
    const replies = await Promise.all(['a', 'b', 'c', 'd'].map((label) => one.run(sleep(label))));
    expect(replies.map((r) => [r.label, r.seen])).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ]);
    expect(new Set(replies.map((r) => r.threadId)).size).toBe(1);
  });

  it('runs no more tasks at once than it has threads, on no more threads than its size', async () => {
    const two = pool(2);
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => two.run(sleep(`t${i}`, 150))));
    expect(replies.map((r) => r.label)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
    expect(new Set(replies.map((r) => r.threadId)).size).toBe(2);
    // Tasks running at each task's start: never more than two, and two at some point.
    const atOnce = replies.map((r) => replies.filter((o) => o.startedAt <= r.startedAt && r.startedAt < o.endedAt).length);
    expect(Math.max(...atOnce)).toBe(2);
  }, 20_000);

  it('fails a task whose thread reports an error, with its message, and keeps the thread', async () => {
    const one = pool(1);
    const before = await one.run(sleep('before'));
    await expect(one.run({ op: 'throw', message: 'the document is broken' })).rejects.toThrow('the document is broken');
    const after = await one.run(sleep('after'));
    expect(after.threadId).toBe(before.threadId);
  });

  it('fails the task of a thread that dies, and replaces the thread for the next', async () => {
    const one = pool(1);
    const before = await one.run(sleep('before'));
    const dying = one.run({ op: 'die', code: 7 });
    const queued = one.run(sleep('queued'));
    await expect(dying).rejects.toThrow('test thread exited with code 7');
    const after = await queued;
    expect(after.threadId).not.toBe(before.threadId);
    expect(after.seen).toBe(1);
  });

  it('terminates a thread running past the timeout, fails its task and carries on with a new thread', async () => {
    // The timeout counts from dispatch, so it covers starting the thread from source too.
    const one = pool(1, 2_500);
    const first = await one.run(sleep('first'));
    const started = Date.now();
    const spinning = one.run({ op: 'spin' });
    const next = one.run(sleep('next'));
    await expect(spinning).rejects.toThrow('test thread took longer than 2500 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
    const after = await next;
    expect(after.label).toBe('next');
    expect(after.threadId).not.toBe(first.threadId);
    // A task within the timeout is untouched.
    expect((await one.run(sleep('quick', 50))).label).toBe('quick');
  }, 20_000);

  it('on close fails queued and running tasks and refuses new ones', async () => {
    const one = pool(1);
    await one.run(sleep('warm'));
    const running = expect(one.run(sleep('running', 2_000))).rejects.toThrow('the test pool is closed');
    const queued = expect(one.run(sleep('queued'))).rejects.toThrow('the test pool is closed');
    await one.close();
    await running;
    await queued;
    await expect(one.run(sleep('late'))).rejects.toThrow('the test pool is closed');
  });

  it('starts no thread before the first task and refuses a size below one', async () => {
    const unused = pool(3);
    await unused.close();
    expect(() => pool(0)).toThrow('at least one thread');
  });
});
