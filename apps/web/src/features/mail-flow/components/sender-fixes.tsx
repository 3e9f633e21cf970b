import type { MailSender } from '@sendwell/contracts';
import { Badge } from '@/components/ui/badge';
import { CopyValue } from '@/components/ui/copy-value';
import { count, percent } from '../lib/mail-flow-display';

/** What to change for each of the domain's own senders whose mail still fails DMARC. */
export function SenderFixes({ senders }: { senders: readonly MailSender[] }) {
  if (senders.length === 0) return null;
  return (
    <div className="space-y-3" data-testid="sender-fixes">
      <h4 className="text-sm font-semibold">What to fix</h4>
      <ul className="space-y-3">
        {senders.map((s) => (
          <li key={s.id} className="space-y-2 rounded-lg border border-amber-500/40 bg-amber-50/60 p-3 dark:bg-amber-950/30" data-testid="sender-fix">
            <p className="text-sm">
              <span className="font-semibold">{s.name}</span>
              <span className="text-muted-foreground">
                {' '}
                passes DMARC for {percent(s.dmarcPass)} of {count(s.messages)} messages.
              </span>
            </p>
            <ul className="space-y-2">
              {s.fixes.map((f, i) => (
                <li key={`${f.kind}-${i}`} className="space-y-1.5">
                  <p className="flex items-start gap-2 text-sm">
                    <Badge variant="outline" className="mt-0.5 shrink-0 uppercase">
                      {f.kind}
                    </Badge>
                    <span>{f.text}</span>
                  </p>
                  {f.record ? <CopyValue label={`${s.name} ${f.kind.toUpperCase()} record`} value={f.record} /> : null}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}
