import fc from 'fast-check';

/**
 * Hostile input for parser tests (issue 24): what a scanned domain or a server can send, built to
 * make a parser backtrack. A linear parser reads the largest input we accept in a few milliseconds;
 * a quadratic regular expression takes over a second at 32K characters. The budget sits between the
 * two, and is CPU time, not wall time: `pnpm test` runs two packages' test files at once on two
 * cores, and a parse that waits for a core is not a slow parse (wall-time budgets of 50 ms failed
 * there at 55 and 66 ms).
 */
export const HOSTILE_BUDGET_MS = 100;

/** Milliseconds of this process's CPU (user and system) since `started` (a `process.cpuUsage()`). */
export function cpuMsSince(started: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** Runs `parse` once and fails when it takes more CPU than the budget; returns what it returned. */
export function withinBudget<T>(parse: () => T, budgetMs = HOSTILE_BUDGET_MS): T {
  const started = process.cpuUsage();
  const result = parse();
  const elapsed = cpuMsSince(started);
  if (elapsed > budgetMs) throw new Error(`took ${elapsed.toFixed(1)} ms of CPU, over the ${budgetMs} ms budget for hostile input`);
  return result;
}

/** Characters that drive backtracking in the grammars we read: blanks, separators, quotes, brackets. */
const TRICKY = [' ', '\t', '  \t ', ':', ';', '=', ',', '.', '/', '-', '"', "'", '<', '>', '{', '}', '(', ')', '[', ']', '%', '@', '\r\n', '\n', '\\', '+'];

/**
 * Text of up to `maxPieces` pieces: the tricky characters, runs of one of them, and the grammar's own
 * words (`words`, e.g. "v=spf1", "include:", "p="), mixed with arbitrary strings.
 */
export function hostileText(words: readonly string[] = [], maxPieces = 40): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...TRICKY, ...words) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...TRICKY, ...words), fc.integer({ min: 2, max: 200 })).map(([text, times]) => text.repeat(times)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );
  return fc.array(piece, { maxLength: maxPieces }).map((pieces) => pieces.join(''));
}

/**
 * The classic attack shapes at `length` characters: one long run of a character (then a character
 * that makes a match fail at the end), and a short unit repeated, for each of `units`.
 */
export function adversarialInputs(length: number, units: readonly string[] = []): string[] {
  const shapes: string[] = [];
  for (const unit of [' ', '\t', ' \t', ':', ';', '=', ';=', ' ;', '{', '<a>', '%', ...units]) {
    const run = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
    shapes.push(run, `${run.slice(0, -1)}!`, `!${run.slice(1)}`);
  }
  return shapes;
}

/**
 * Bytes of any length up to `maxBytes`, filled from a seed (xorshift): either any byte, or only the
 * characters of `alphabet` (a grammar's own, to get past its first checks). fast-check builds
 * 256 KB arrays slowly; a seed and a length shrink and replay as well.
 */
export function seededBytes(maxBytes: number, alphabet: string): fc.Arbitrary<Buffer> {
  const chars = Buffer.from(alphabet);
  return fc.record({ seed: fc.integer(), length: fc.integer({ min: 0, max: maxBytes }), grammar: fc.boolean() }).map(({ seed, length, grammar }) => {
    const out = Buffer.alloc(length);
    let state = seed | 1;
    for (let i = 0; i < length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      out[i] = grammar ? (chars[(state >>> 0) % chars.length] as number) : state & 0xff;
    }
    return out;
  });
}
