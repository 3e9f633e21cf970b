import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useCurrency } from '@/lib/hooks/use-currency';

const Pricing = lazy(() => import('@/components/pricing/pricing').then((m) => ({ default: m.Pricing })));

/**
 * The pricing section reads the contracts' plan rules, which bring zod; it loads when it comes near
 * the viewport (or at once for a #pricing link), keeping the first load of `/` within budget.
 */
export function LazyPricing() {
  const [currency] = useCurrency();
  const ref = useRef<HTMLElement>(null);
  // Read in an effect, not at first render: the page may be hydrating HTML rendered without a hash.
  const [show, setShow] = useState(false);

  useEffect(() => {
    if (show || !ref.current) return;
    if (window.location.hash === '#pricing') {
      setShow(true);
      return;
    }
    if (typeof IntersectionObserver === 'undefined') {
      setShow(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setShow(true);
    }, { rootMargin: '800px 0px' });
    observer.observe(ref.current);
    const onHash = () => window.location.hash === '#pricing' && setShow(true);
    window.addEventListener('hashchange', onHash);
    return () => {
      observer.disconnect();
      window.removeEventListener('hashchange', onHash);
    };
  }, [show]);

  const placeholder = <section ref={ref} id="pricing" aria-label="Pricing" className="min-h-[70rem] scroll-mt-20" />;
  if (!show) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <Pricing currency={currency} />
    </Suspense>
  );
}
