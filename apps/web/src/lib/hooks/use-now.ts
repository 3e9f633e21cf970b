import { useEffect, useState } from 'react';

/**
 * The current time, refreshed every `intervalMs` (a minute by default): relative times and the
 * countdown chip re-render on it instead of each keeping its own timer.
 */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
