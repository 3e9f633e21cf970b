/**
 * The benchmark's receiver in its own process (so it never shares an event loop with the worker or
 * the load): a real HTTPS server with a test CA, counting requests. Prints `{"url","caFile"}` when
 * listening; answers `count` on stdin with the number received so far.
 */
import { createInterface } from 'node:readline';
import { startHttpsReceiver } from '@sendwell/testing';

const receiver = await startHttpsReceiver({ keep: false });
process.stdout.write(`${JSON.stringify({ url: receiver.url, caFile: receiver.caFile })}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'count') process.stdout.write(`${JSON.stringify({ count: receiver.count() })}\n`);
  if (line === 'stop') void receiver.close().then(() => process.exit(0));
});
