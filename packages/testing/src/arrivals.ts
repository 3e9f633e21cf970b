/**
 * A list that fills up over time (received mail, a child process's events) and a way to wait for the
 * first entry matching a predicate, whether it is already there or arrives later.
 */
export interface Arrivals<T> {
  readonly items: T[];
  push(item: T): void;
  waitFor(predicate: (item: T) => boolean, timeoutMs: number, describeTimeout: () => string): Promise<T>;
}

export function arrivals<T>(): Arrivals<T> {
  const items: T[] = [];
  const waiters = new Set<() => void>();
  return {
    items,
    push(item) {
      items.push(item);
      for (const wake of waiters) wake();
    },
    waitFor(predicate, timeoutMs, describeTimeout) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = items.find(predicate);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(describeTimeout()));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
  };
}
