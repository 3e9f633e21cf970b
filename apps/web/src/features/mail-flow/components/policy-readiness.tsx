import type { PolicyReadiness as Readiness } from '@sendwell/contracts';
import { CheckCircle2, CircleAlert } from 'lucide-react';
import { CopyValue } from '@/components/ui/copy-value';
import { count, percent, policyText } from '../lib/mail-flow-display';

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="rounded-lg border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-sm font-semibold" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** Whether the domain can take the next DMARC step without losing legitimate mail, and the record for it. */
export function PolicyReadiness({ readiness }: { readiness: Readiness }) {
  const { currentPolicy, nextPolicy } = readiness;
  return (
    <div className="space-y-4" data-testid="policy-readiness">
      <dl className="grid grid-cols-2 gap-3">
        <Fact label="Current policy" testId="readiness-current">
          {currentPolicy ? policyText[currentPolicy] : 'None seen yet'}
        </Fact>
        <Fact label="Testing mode (t=y)" testId="readiness-testing">
          {readiness.testing ? 'On: receivers apply one step less' : 'Off'}
        </Fact>
        <Fact label="Legitimate messages" testId="readiness-legitimate">
          {count(readiness.legitimateMessages)}
        </Fact>
        <Fact label={nextPolicy ? `Affected at p=${nextPolicy}` : 'Failing legitimate mail'} testId="readiness-affected">
          {count(readiness.affectedMessages)} ({percent(readiness.affectedShare)})
        </Fact>
      </dl>
      {nextPolicy === null && currentPolicy === 'reject' ? (
        <p className="flex items-start gap-2 text-sm text-green-800 dark:text-green-300" data-testid="readiness-status">
          <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          At p=reject: receivers refuse mail that fails DMARC. Keep watching for new senders.
        </p>
      ) : readiness.ready ? (
        <div className="space-y-2">
          <p className="flex items-start gap-2 text-sm font-medium text-green-800 dark:text-green-300" data-testid="readiness-status">
            <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            Ready for p={nextPolicy}: under 0.5% of legitimate mail would be affected.
          </p>
          {readiness.record ? (
            <>
              <p className="text-xs text-muted-foreground">Publish this as the TXT record at _dmarc:</p>
              <CopyValue label="Next DMARC record" value={readiness.record} />
            </>
          ) : null}
        </div>
      ) : (
        <div className="space-y-2">
          <p className="flex items-start gap-2 text-sm font-medium text-amber-800 dark:text-amber-300" data-testid="readiness-status">
            <CircleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            Not ready for {nextPolicy ? `p=${nextPolicy}` : 'the next step'} yet
          </p>
          {readiness.blockers.length ? (
            <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground" data-testid="readiness-blockers">
              {readiness.blockers.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
    </div>
  );
}
