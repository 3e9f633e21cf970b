import type { DnsRecords } from '@sendwell/contracts';
import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

function Mono({ children }: { children: string }) {
  return <code className="block break-all rounded-md bg-muted px-2 py-1.5 font-mono text-xs">{children}</code>;
}

function Row({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1.5 py-3 sm:grid-cols-[9rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium">{title}</dt>
      <dd className="min-w-0 space-y-1.5 text-sm">{children}</dd>
    </div>
  );
}

const none = <span className="text-muted-foreground">None found</span>;

/** Current DNS records (part 2 §2.2, §3): A, MX with priority and addresses, SPF and its IPs, DMARC. */
export function DnsRecordsSection({
  records,
  isPending = false,
  isError = false,
  title = 'Current DNS Records',
}: {
  records: DnsRecords | undefined;
  isPending?: boolean;
  isError?: boolean;
  title?: string;
}) {
  return (
    <Card data-testid="dns-records">
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          {title}
        </CardTitle>
        <CardDescription>{records?.checkedAt ? `Read at ${new Date(records.checkedAt).toLocaleString('en-US')}` : 'From the latest completed scan.'}</CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : isError || !records ? (
          <Alert variant="destructive">Failed to load the DNS records.</Alert>
        ) : (
          <dl className="divide-y">
            <Row title="A records">{records.aRecords.length ? <Mono>{records.aRecords.join(', ')}</Mono> : none}</Row>
            <Row title="MX records">
              {records.mxRecords.length
                ? [...records.mxRecords]
                    .sort((a, b) => a.priority - b.priority)
                    .map((mx) => (
                      <div key={`${mx.priority}-${mx.exchange}`} className="flex flex-wrap items-center gap-2">
                        <span className="rounded bg-secondary px-1.5 py-0.5 text-xs font-semibold tabular-nums">{mx.priority}</span>
                        <span className="break-all font-mono text-xs">{mx.exchange}</span>
                        {mx.ips?.length ? <span className="break-all text-xs text-muted-foreground">→ {mx.ips.join(', ')}</span> : null}
                      </div>
                    ))
                : none}
            </Row>
            <Row title="SPF record">
              {records.spfRecord ? <Mono>{records.spfRecord}</Mono> : none}
              {records.spfIps.length ? <p className="text-xs text-muted-foreground">Authorised IPs: {records.spfIps.join(', ')}</p> : null}
            </Row>
            <Row title="DMARC record">{records.dmarcRecord ? <Mono>{records.dmarcRecord}</Mono> : none}</Row>
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
