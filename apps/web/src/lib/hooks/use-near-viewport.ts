import { useEffect, useRef, useState } from 'react';

/**
 * Whether the element given `ref` has come within `margin` of the viewport, once (it stays true): for
 * a section below the fold whose code and reads can wait until the user scrolls towards it. Nothing is
 * watched while `enabled` is false (the page above is still loading, and everything looks near). True
 * at once where IntersectionObserver is missing.
 */
export function useNearViewport<T extends Element>({ margin = '300px', enabled = true }: { margin?: string; enabled?: boolean } = {}): {
  ref: React.RefObject<T | null>;
  near: boolean;
} {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !enabled || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        setNear(true);
      },
      { rootMargin: `${margin} 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, enabled, margin]);
  return { ref, near };
}
