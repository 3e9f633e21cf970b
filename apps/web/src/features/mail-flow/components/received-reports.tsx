import type { ReceivedReports as Received } from '@sendwell/contracts';
import { ExternalLink } from 'lucide-react';
import { formatUserDate, formatUserDateTime } from '@/lib/display';
import { count } from '../lib/mail-flow-display';
import { ScrollX } from '@/components/ui/scroll-x';

/** Most reports cover one day: its date once rather than the same date twice. */
function periodText(begin: string, end: string, dateFormat: string): string {
  const first = formatUserDate(begin, dateFormat);
  const last = formatUserDate(end, dateFormat);
  return first === last ? first : `${first} – ${last}`;
}

const via = { smtp: 'Email', https: 'HTTPS', upload: 'Upload' } as const;

/**
 * The reports received, newest first as the intake lists them. Periods are shown in UTC: reporters
 * cover UTC days, and a local zone would shift them by one.
 */
export function ReceivedReports({ received, dateFormat, timezone }: { received: Received; dateFormat: string; timezone: string }) {
  if (received.reports.length === 0) return <p className="text-sm text-muted-foreground">No reports received yet.</p>;
  return (
    <div className="space-y-3">
      <ScrollX label="Reports received">
        <table className="w-full min-w-[36rem] text-sm" data-testid="received-reports">
          <caption className="sr-only">Reports received</caption>
          <thead>
            <tr className="border-b text-left text-xs text-muted-foreground">
              <th scope="col" className="py-2 pr-3 font-medium">
                Reporter
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Period (UTC)
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Records
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Messages
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Received
              </th>
              <th scope="col" className="py-2 font-medium">
                <span className="sr-only">Source</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {received.reports.map((r) => (
              <tr key={r.id} className="border-b align-top last:border-0" data-testid="received-report">
                <th scope="row" className="py-2 pr-3 text-left font-medium">
                  <span className="break-all">{r.reporter}</span>
                  <span className="block text-xs font-normal text-muted-foreground">
                    {r.kind === 'tls' ? 'TLS report' : 'DMARC aggregate'} · <span className="break-all">{r.reportId}</span>
                  </span>
                </th>
                <td className="whitespace-nowrap py-2 pr-3">
                  {periodText(r.begin, r.end, dateFormat)}
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">{count(r.records)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{count(r.messages)}</td>
                <td className="py-2 pr-3 text-xs text-muted-foreground">
                  {formatUserDateTime(r.receivedAt, dateFormat, timezone)}
                  <span className="block">via {via[r.via]}</span>
                </td>
                <td className="whitespace-nowrap py-2 text-right">
                  {r.sourceUrl ? (
                    <a href={r.sourceUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
                      View source
                      <span className="sr-only"> of report {r.reportId} from {r.reporter} (opens in a new tab)</span>
                      <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
                    </a>
                  ) : (
                    <span className="text-xs text-muted-foreground">Source expired</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
      {received.failureReports.length ? (
        <p className="text-sm text-muted-foreground" data-testid="failure-report-count">
          {count(received.failureReports.length)} failure {received.failureReports.length === 1 ? 'report' : 'reports'} stored (redacted).
        </p>
      ) : null}
    </div>
  );
}
