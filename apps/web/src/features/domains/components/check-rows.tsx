import { checkRows } from '@sendwell/contracts';
import { checkBadgeVariant, checkRowLabel } from '@/lib/display';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';

interface CheckLike {
  type: string;
  status: string;
}

/**
 * The six rows of a domain card with the display mappings of part 1 §4 and part 2 §4. `checks`
 * undefined means still loading; a scanned domain without a given check shows that row's fallback.
 */
export function CheckRows({ checks, scanned }: { checks: readonly CheckLike[] | undefined; scanned: boolean }) {
  return (
    <dl className="divide-y">
      {checkRows.map((row) => {
        const check = checks?.find((c) => c.type === row.type);
        return (
          <div key={row.type} className="flex items-center justify-between gap-3 py-2" data-testid={`row-${row.type}`}>
            <dt className="text-sm text-muted-foreground">{row.title}</dt>
            <dd>
              {checks === undefined ? (
                <Skeleton className="h-5 w-16 rounded-full" />
              ) : !scanned || checks.length === 0 ? (
                <span className="text-xs text-muted-foreground">Not scanned</span>
              ) : (
                <Badge variant={checkBadgeVariant(check?.status)}>{checkRowLabel(row.type, check?.status)}</Badge>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
