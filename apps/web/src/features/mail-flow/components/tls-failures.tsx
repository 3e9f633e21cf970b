import type { TlsReports } from '@sendwell/contracts';
import { count } from '../lib/mail-flow-display';
import { ScrollX } from '@/components/ui/scroll-x';

/** TLS-RPT: sessions to the domain's MX hosts that could not be encrypted as its policy asks, by cause. */
export function TlsFailures({ tls }: { tls: TlsReports }) {
  if (tls.reports === 0) {
    return <p className="text-sm text-muted-foreground">No TLS reports in this window. Receivers send them daily once the _smtp._tls record is published.</p>;
  }
  return (
    <div className="space-y-4" data-testid="tls-failures">
      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-lg border p-3">
          <dt className="text-xs text-muted-foreground">Successful sessions</dt>
          <dd className="mt-1 font-semibold tabular-nums">{count(tls.successfulSessions)}</dd>
        </div>
        <div className="rounded-lg border p-3">
          <dt className="text-xs text-muted-foreground">Failed sessions</dt>
          <dd className={tls.failedSessions ? 'mt-1 font-semibold tabular-nums text-red-700 dark:text-red-400' : 'mt-1 font-semibold tabular-nums'}>{count(tls.failedSessions)}</dd>
        </div>
      </dl>
      {tls.failures.length ? (
        <ScrollX label="Failed TLS sessions">
          <table className="w-full text-sm">
            <caption className="sr-only">Failed TLS sessions by result type and MX host</caption>
            <thead>
              <tr className="border-b text-left text-xs text-muted-foreground">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Result type
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  MX host
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Sessions
                </th>
              </tr>
            </thead>
            <tbody>
              {tls.failures.map((f) => (
                <tr key={`${f.resultType}-${f.mxHost ?? ''}`} className="border-b last:border-0">
                  <td className="py-2 pr-3 font-mono text-xs">{f.resultType}</td>
                  <td className="break-all py-2 pr-3 font-mono text-xs">{f.mxHost ?? '—'}</td>
                  <td className="py-2 text-right tabular-nums">{count(f.sessions)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      ) : (
        <p className="text-sm text-muted-foreground">Every reported session was encrypted as your policy asks.</p>
      )}
    </div>
  );
}
