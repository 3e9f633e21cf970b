/**
 * Preloaded (--import) into the intake process of figures 2 and 3, which runs unchanged: over the IPC
 * channel it sends the process's RSS and heap every second, and on {"type":"gc"} runs a full GC
 * (the process is started with --expose-gc) and answers with the memory after it.
 */
type Sample = { type: 'sample' | 'gc'; t: number; rss: number; heapUsed: number };

const sample = (type: Sample['type']): Sample => {
  const m = process.memoryUsage();
  return { type, t: Date.now(), rss: m.rss, heapUsed: m.heapUsed };
};

if (process.send) {
  const send = (s: Sample) => process.send?.(s);
  setInterval(() => send(sample('sample')), 1_000).unref();
  process.on('message', (message: { type?: string }) => {
    if (message?.type !== 'gc') return;
    global.gc?.();
    global.gc?.();
    send(sample('gc'));
  });
  // The channel must not keep the service alive past its own shutdown.
  process.channel?.unref();
}
