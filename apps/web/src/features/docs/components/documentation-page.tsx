import { ChevronDown, Search } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { categoryLabels, filterGuides, guideCategories, guides, type GuideCategory } from '../lib/guides';
import { GuideBody } from './guide-body';

/** /documentation (part 1): collapsible guides, filtered by category and searchable; open to every plan. */
export function DocumentationPage() {
  const [category, setCategory] = useState<GuideCategory | 'all'>('all');
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState<Set<string>>(new Set(['how-monitoring-works']));
  const shown = useMemo(() => filterGuides(guides, category, query), [category, query]);
  const searchId = useId();

  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div className="space-y-1">
        <h2 className="text-2xl font-bold tracking-tight">Documentation</h2>
        <p className="text-sm text-muted-foreground">What each check means, how the score is computed, and how alerts and reports work.</p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <div role="group" aria-label="Category" className="flex flex-wrap gap-2">
          {(['all', ...guideCategories] as const).map((c) => (
            <Button key={c} size="sm" variant={category === c ? 'default' : 'outline'} aria-pressed={category === c} onClick={() => setCategory(c)}>
              {categoryLabels[c]}
            </Button>
          ))}
        </div>
        <div className="relative min-w-0 flex-1 basis-56">
          <label htmlFor={searchId} className="sr-only">
            Search the documentation
          </label>
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input id={searchId} type="search" placeholder="Search the documentation" className="pl-9" value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
      </div>
      {shown.length === 0 ? (
        <p className="text-sm text-muted-foreground" role="status">
          No guide matches “{query}”.
        </p>
      ) : (
        <div className="space-y-3">
          {shown.map((guide) => {
            const expanded = open.has(guide.id) || query.trim() !== '';
            return (
              <Card key={guide.id} data-testid={`guide-${guide.id}`}>
                <h3>
                  <button
                    type="button"
                    className="flex w-full items-center justify-between gap-3 px-5 py-4 text-left font-semibold"
                    aria-expanded={expanded}
                    aria-controls={`guide-body-${guide.id}`}
                    onClick={() => toggle(guide.id)}
                  >
                    <span>
                      {guide.title}
                      <span className="ml-2 text-xs font-normal text-muted-foreground">{categoryLabels[guide.category]}</span>
                    </span>
                    <ChevronDown className={`h-4 w-4 shrink-0 transition-transform ${expanded ? 'rotate-180' : ''}`} aria-hidden="true" />
                  </button>
                </h3>
                <div id={`guide-body-${guide.id}`} hidden={!expanded} className="px-5 pb-5">
                  <GuideBody blocks={guide.blocks} title={guide.title} />
                </div>
              </Card>
            );
          })}
        </div>
      )}
    </div>
  );
}
