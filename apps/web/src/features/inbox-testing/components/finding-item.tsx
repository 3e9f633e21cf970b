import type { MailTestFinding } from '@sendwell/contracts';
import { AlertCircle, AlertTriangle, Info } from 'lucide-react';
import { points, severityLabel } from '../lib/mail-test-display';

const severityIcon = { error: AlertCircle, warning: AlertTriangle, info: Info } as const;
const severityTone = { error: 'text-destructive dark:text-red-400', warning: 'text-amber-700 dark:text-amber-400', info: 'text-muted-foreground' } as const;

/** One finding: its severity, what it is, why it matters, how to fix it and what it cost. */
export function FindingItem({ finding }: { finding: MailTestFinding }) {
  const Icon = severityIcon[finding.severity];
  return (
    <li className="flex gap-3 rounded-lg border p-3" data-testid="mail-test-finding" data-severity={finding.severity} data-code={finding.code}>
      <Icon className={`mt-0.5 h-4 w-4 shrink-0 ${severityTone[finding.severity]}`} aria-hidden="true" />
      <div className="min-w-0 flex-1 space-y-1 text-sm">
        <p className="flex flex-wrap items-baseline justify-between gap-x-3">
          <span className="font-semibold">
            <span className={severityTone[finding.severity]}>{severityLabel[finding.severity]}:</span> {finding.title}
          </span>
          {finding.points > 0 ? <span className="text-xs tabular-nums text-muted-foreground">−{points(finding.points)} points</span> : null}
        </p>
        <p>{finding.explanation}</p>
        {finding.fix ? (
          <p>
            <span className="font-medium">Fix: </span>
            {finding.fix}
          </p>
        ) : null}
        {finding.reference ? <p className="text-xs text-muted-foreground">{finding.reference}</p> : null}
      </div>
    </li>
  );
}
