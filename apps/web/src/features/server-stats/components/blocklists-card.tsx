import type { ServerStats } from '@sendwell/contracts';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { relativeTime } from '@/lib/display';
import { ScrollX } from '@/components/ui/scroll-x';

/** The scanner's self-testing block list registry: which lists answer their RFC 5782 test points right (times against the answer's `measuredAt`). */
export function BlocklistsCard({ blocklists, now }: { blocklists: ServerStats['blocklists']; now: string }) {
  const degraded = blocklists.filter((b) => b.state === 'degraded').length;
  return (
    <Card data-testid="blocklists-card">
      <CardHeader>
        <CardTitle as="h3" className="text-lg">
          Block lists
        </CardTitle>
        <CardDescription>
          {blocklists.length === 0
            ? 'No probe results yet: each list is asked about its test points every few minutes.'
            : `${blocklists.length - degraded} of ${blocklists.length} lists answer their test points correctly. A degraded list's answers are read as unknown until it recovers.`}
        </CardDescription>
      </CardHeader>
      {blocklists.length > 0 ? (
        <CardContent>
          <ScrollX label="Block lists">
            <table className="w-full text-left text-sm" data-testid="blocklists-table">
              <thead className="text-muted-foreground">
                <tr>
                  <th className="py-2 pr-3 font-medium">List</th>
                  <th className="py-2 pr-3 font-medium">State</th>
                  <th className="py-2 pr-3 font-medium">Why</th>
                  <th className="py-2 font-medium">Since</th>
                </tr>
              </thead>
              <tbody>
                {blocklists.map((b) => (
                  <tr key={b.zone} className="border-t" data-testid={`blocklist-${b.zone}`}>
                    <td className="py-2 pr-3">
                      <span className="font-medium">{b.name}</span>
                      {b.name !== b.zone ? <span className="block text-xs text-muted-foreground">{b.zone}</span> : null}
                    </td>
                    <td className="py-2 pr-3">
                      <Badge variant={b.state === 'healthy' ? 'secondary' : 'destructive'}>{b.state === 'healthy' ? 'Healthy' : 'Degraded'}</Badge>
                    </td>
                    <td className="py-2 pr-3 text-muted-foreground">{b.reason ?? '—'}</td>
                    <td className="py-2 whitespace-nowrap" title={b.since}>
                      {relativeTime(b.since, now)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollX>
        </CardContent>
      ) : null}
    </Card>
  );
}
