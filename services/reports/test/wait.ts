/** Polls until `check` returns a value, or fails after `timeoutMs` with what it last saw. */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
