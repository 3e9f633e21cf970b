import type { ReportAddresses } from '@sendwell/contracts';
import { CopyValue } from '@/components/ui/copy-value';

/** The addresses reports go to and the exact records that ask receivers to send them there. */
export function ReportSetup({ addresses }: { addresses: ReportAddresses }) {
  return (
    <div className="space-y-5" data-testid="report-setup">
      <div className="space-y-3">
        <h4 className="text-sm font-semibold">DNS records to publish</h4>
        <ol className="space-y-3">
          {addresses.records.map((r) => (
            <li key={r.host} className="space-y-2 rounded-lg border p-3" data-testid="record-to-publish">
              <p className="text-sm">
                <span className="mr-2 rounded bg-secondary px-1.5 py-0.5 text-xs font-semibold">{r.type}</span>
                {r.purpose}
              </p>
              <div className="grid grid-cols-1 gap-2 sm:grid-cols-[4rem_1fr] sm:items-start">
                <span className="pt-1.5 text-xs font-medium text-muted-foreground">Name</span>
                <CopyValue label={`${r.host} name`} value={r.host} />
                <span className="pt-1.5 text-xs font-medium text-muted-foreground">Value</span>
                <CopyValue label={`${r.host} value`} value={r.value} />
              </div>
            </li>
          ))}
        </ol>
      </div>
      <div className="space-y-2">
        <h4 className="text-sm font-semibold">Report addresses</h4>
        <p className="text-xs text-muted-foreground">Already in the records above; listed for providers that ask for an address directly.</p>
        <dl className="grid grid-cols-1 gap-2 sm:grid-cols-[10rem_1fr] sm:items-start">
          <dt className="pt-1.5 text-xs font-medium text-muted-foreground">DMARC reports (rua, ruf)</dt>
          <dd className="min-w-0">
            <CopyValue label="DMARC address" value={addresses.dmarcAddress} />
          </dd>
          <dt className="pt-1.5 text-xs font-medium text-muted-foreground">TLS reports by mail</dt>
          <dd className="min-w-0">
            <CopyValue label="TLS-RPT address" value={addresses.tlsRptAddress} />
          </dd>
          <dt className="pt-1.5 text-xs font-medium text-muted-foreground">TLS reports over HTTPS</dt>
          <dd className="min-w-0">
            <CopyValue label="TLS-RPT URL" value={addresses.tlsRptUrl} />
          </dd>
        </dl>
      </div>
    </div>
  );
}
