import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { referenceGroups } from '../lib/categories';

/** What each result means (part 2 §2.15), from the contracts' list of reasons. */
export function ReferenceCard() {
  return (
    <Card data-testid="verify-reference">
      <CardHeader>
        <CardTitle as="h3" className="text-lg">
          What the results mean
        </CardTitle>
        <CardDescription>Each result falls in one of three groups.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          {referenceGroups.map((group) => (
            <div key={group.category} className="rounded-lg border p-3">
              <dt className="font-semibold">{group.label}</dt>
              <dd className="mt-1 text-sm text-muted-foreground">{group.reasons.join(', ')}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
