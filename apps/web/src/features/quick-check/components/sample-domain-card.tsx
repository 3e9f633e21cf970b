import { checkRows, type SampleDomainAnswer } from '@sendwell/contracts';
import { checkBadgeVariant, checkRowLabel, displayDomainStatus, domainBadgeVariant, lastCheckedText, SCANNING_TEXT } from '@/lib/display';
import { Globe } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader } from '@/components/ui/card';

/** The six rows with the display mappings; 'Scanning...' while the checks are absent (part 2 §2.9). */
export function SampleDomainCard({ answer, onOpen }: { answer: SampleDomainAnswer; onOpen: () => void }) {
  const { domain, checks } = answer;
  const status = checks === null ? 'pending' : displayDomainStatus(domain.status);
  return (
    // A click on the card leads to registration (part 2 §2.9); keyboard users have the same
    // destination in the Create Account button below, so the card itself is not a focus stop.
    <Card onClick={onOpen} className="cursor-pointer transition-shadow hover:shadow-md" data-testid="sample-domain-card">
      <CardHeader className="flex-row items-center justify-between gap-3 space-y-0">
        <div className="flex min-w-0 items-center gap-2">
          <Globe className="h-5 w-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <h2 className="truncate text-lg font-semibold">{domain.name}</h2>
        </div>
        <Badge variant={domainBadgeVariant(status)} data-testid="domain-status">
          {status}
        </Badge>
      </CardHeader>
      <CardContent>
        <dl className="divide-y">
          {checkRows.map((row) => {
            const check = checks?.find((c) => c.type === row.type);
            return (
              <div key={row.type} className="flex items-center justify-between gap-3 py-2.5" data-testid={`row-${row.type}`}>
                <dt className="text-sm text-muted-foreground">{row.title}</dt>
                <dd>
                  {checks === null ? (
                    <span className="text-sm text-muted-foreground">{SCANNING_TEXT}</span>
                  ) : (
                    <Badge variant={checkBadgeVariant(check?.status)}>{checkRowLabel(row.type, check?.status)}</Badge>
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
        <p className="mt-3 text-xs text-muted-foreground" data-testid="last-checked">
          {lastCheckedText(domain.lastScan)}
        </p>
      </CardContent>
    </Card>
  );
}
