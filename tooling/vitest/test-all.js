#!/usr/bin/env node
// `pnpm test`: every typecheck (the Node packages in one program, tsconfig.node.json; the web app's own),
// lint and test of the workspace, then one summary (summary.js).
//
// The browser tests (apps/web test:e2e, ~22 minutes) are the longest task by far, and half of their
// time is spent waiting on the stack they drive. Inside turbo they started only after the first
// packages' typecheck and lint (at 5 minutes), so they set the run's length. They run here from the
// first second instead, beside turbo's two lanes, and the summary adds up both.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const root = new URL('../..', import.meta.url).pathname;
const summary = new URL('./summary.js', import.meta.url).pathname;

/** Runs a command from the root; its lines go to stdout with a prefix when given. Resolves to its exit code. */
function run(command, args, prefix) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env });
    if (prefix) {
      for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix}${line}\n`));
    }
    child.on('error', (err) => {
      console.error(`${command}: ${err.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const cleaned = await run(process.execPath, [summary, '--clean']);
if (cleaned !== 0) process.exit(cleaned);

const [browser, turbo] = await Promise.all([
  run('pnpm', ['--filter', '@sendwell/web', 'test:e2e'], '@sendwell/web:test:e2e: '),
  run('pnpm', ['exec', 'turbo', 'run', 'typecheck:all', 'lint', 'test', '--concurrency=2', '--continue', '--summarize']),
]);
if (browser !== 0) console.log(`\nThe browser tests (apps/web test:e2e) exited with ${browser}.`);
const code = await run(process.execPath, [summary, `--runs-exit=${turbo !== 0 ? turbo : browser}`]);
process.exit(code);
