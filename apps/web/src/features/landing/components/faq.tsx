import { ChevronDown } from 'lucide-react';
import { Section } from '@/components/layout/section';
import { faqItems } from '../lib/faq';

export function Faq() {
  return (
    <Section id="faq" title="Frequently asked questions" muted>
      <div className="mx-auto max-w-3xl divide-y rounded-xl border bg-card">
        {faqItems.map(({ q, a }) => (
          <details key={q} className="group p-4">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-medium">
              {q}
              <ChevronDown className="h-4 w-4 shrink-0 transition-transform group-open:rotate-180" aria-hidden="true" />
            </summary>
            <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{a}</p>
          </details>
        ))}
      </div>
    </Section>
  );
}
