import type { EmailVerificationResult } from '@sendwell/contracts';
import { AlertTriangle, CheckCircle2, XCircle } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { categoryDisplay } from '../lib/categories';

const bannerTone = {
  send_to: { icon: CheckCircle2, className: 'border-green-600/40 bg-green-50 text-green-900 dark:bg-green-950 dark:text-green-100' },
  risky: { icon: AlertTriangle, className: 'border-amber-500/50 bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100' },
  do_not_send: { icon: XCircle, className: 'border-destructive/50 bg-destructive/10 text-destructive dark:text-red-300' },
} as const;

/** One verdict (part 2 §2.15): the address, its category badge, the raw status, why, and when. */
export function ResultCard({ result }: { result: EmailVerificationResult }) {
  const display = categoryDisplay(result.category);
  const tone = bannerTone[result.category as keyof typeof bannerTone];
  return (
    <Card data-testid="verify-result">
      <CardHeader className="gap-2 sm:flex-row sm:items-center sm:justify-between">
        <CardTitle as="h3" className="break-all text-lg">
          {result.email}
        </CardTitle>
        <Badge variant={display.badge} className="w-fit normal-case" data-testid="verify-category">
          {display.label}
        </Badge>
      </CardHeader>
      <CardContent className="space-y-4">
        {display.banner && tone ? (
          <div role="status" className={cn('flex items-start gap-2 rounded-md border p-3 text-sm', tone.className)} data-testid="verify-banner">
            <tone.icon className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            {display.banner}
          </div>
        ) : null}
        <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-[8rem_1fr]">
          <dt className="text-muted-foreground">Result</dt>
          <dd>
            <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs" data-testid="verify-status">
              {result.status}
            </code>
          </dd>
          <dt className="text-muted-foreground">Why</dt>
          <dd data-testid="verify-description">{result.description}</dd>
          <dt className="text-muted-foreground">Verified</dt>
          <dd>{new Date(result.timestamp).toLocaleString()}</dd>
        </dl>
      </CardContent>
    </Card>
  );
}
