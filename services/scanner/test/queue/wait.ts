export interface WaitOptions {
  timeoutMs?: number;
  everyMs?: number;
  what?: string;
  /** What the failure message adds about the state of things at the timeout (the job, the row, the processes). */
  explain?: () => Promise<string>;
}

/** Polls until `probe` returns a truthy value (real queues and processes take their time). */
export async function waitUntil<T>(probe: () => Promise<T>, { timeoutMs = 30_000, everyMs = 50, what = 'condition', explain }: WaitOptions = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${explain ? `; ${await explain()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
