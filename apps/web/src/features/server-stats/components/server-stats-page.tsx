import { ADMIN_ONLY_MESSAGE, type ServerStats } from '@sendwell/contracts';
import { Activity, Cpu, Database, Gauge, Globe, Network, RefreshCw, Server, Users } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { useUser } from '@/lib/auth/auth-provider';
import { useServerStats } from '../api/server-stats';
import { BlocklistsCard } from './blocklists-card';
import { HistoryCard } from './history-card';
import { percentOf, poolHealthDisplay, uptimeText } from '../lib/format';
import { ScrollX } from '@/components/ui/scroll-x';

const PLACEHOLDER_CARDS = 8;

/** /server-stats (part 2 §2.17): the administrator's figures, measured by the services and gathered by the gateway. */
export function ServerStatsPage() {
  const user = useUser();
  if (!user.isAdmin) {
    return (
      <Alert variant="destructive" title="Access denied">
        {ADMIN_ONLY_MESSAGE}
      </Alert>
    );
  }
  return <ServerStatsView />;
}

function ServerStatsView() {
  // Off until the administrator turns it on (part 2 §7): a page left open does not poll every service.
  const [autoRefresh, setAutoRefresh] = useState(false);
  const stats = useServerStats({ autoRefresh });
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1">
          <h2 className="text-2xl font-bold tracking-tight">Server Statistics</h2>
          <p className="text-sm text-muted-foreground">
            {stats.data ? `Measured ${new Date(stats.data.measuredAt).toLocaleTimeString()}` : 'Measured by each service, gathered by the gateway.'}
            {autoRefresh ? ' · refreshes every 30 seconds' : ''}
          </p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => setAutoRefresh((on) => !on)} aria-pressed={autoRefresh}>
            Auto Refresh {autoRefresh ? 'On' : 'Off'}
          </Button>
          <Button onClick={() => void stats.refetch()} disabled={stats.isFetching}>
            <RefreshCw className={stats.isFetching ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden="true" />
            Refresh Now
          </Button>
        </div>
      </div>
      {stats.isPending ? (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy="true" aria-label="Loading server statistics">
          {Array.from({ length: PLACEHOLDER_CARDS }, (_, i) => (
            <Skeleton key={i} className="h-40 w-full rounded-xl" data-testid="stats-placeholder" />
          ))}
        </div>
      ) : stats.isError ? (
        <Alert variant="destructive">Failed to load server statistics. Please try again.</Alert>
      ) : (
        <StatsCards stats={stats.data} />
      )}
    </div>
  );
}

function StatCard({ title, icon: Icon, children, footer, testId }: { title: string; icon: typeof Server; children?: ReactNode; footer?: ReactNode; testId: string }) {
  return (
    <Card data-testid={testId}>
      <CardHeader className="pb-3">
        <CardTitle as="h3" className="flex items-center gap-2 text-base">
          <Icon className="h-4 w-4 text-muted-foreground" aria-hidden="true" />
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        {children ? <dl className="space-y-1.5 text-sm">{children}</dl> : null}
        {footer}
      </CardContent>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{children}</dd>
    </div>
  );
}

function Bar({ label, value }: { label: string; value: number }) {
  return (
    <div className="space-y-1">
      <div className="flex justify-between text-sm">
        <span className="text-muted-foreground">{label}</span>
        <span className="font-medium tabular-nums">{value}%</span>
      </div>
      <Progress value={value} label={`${label} use`} barClassName={value >= 90 ? 'bg-destructive' : value >= 70 ? 'bg-amber-500' : undefined} />
    </div>
  );
}

function StatsCards({ stats }: { stats: ServerStats }) {
  const { database: db, domains, monitoring, users, system, gateway } = stats;
  const health = poolHealthDisplay(db.connectionPoolHealth);
  const poolPercent = percentOf(db.activeConnections, db.maxConnections);
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard title="Database Pool" icon={Database} testId="card-database" footer={<Progress value={poolPercent} label="Connections in use" />}>
          <Row label="Connections">
            {db.activeConnections} / {db.maxConnections}
          </Row>
          <Row label="Health">
            <Badge variant={health.variant}>{health.label}</Badge>
          </Row>
        </StatCard>
        <StatCard title="Query Performance" icon={Gauge} testId="card-queries">
          <Row label="Average query">{db.avgQueryTime} ms</Row>
          {db.slowQueries > 0 ? <Row label="Slow queries (15 min)">{db.slowQueries}</Row> : null}
        </StatCard>
        <StatCard title="Active Scans" icon={Activity} testId="card-scans">
          <Row label="Running">{domains.activeScans}</Row>
          <Row label="Domains scanned today">{domains.domainsScannedToday}</Row>
        </StatCard>
        <StatCard title="System Status" icon={Server} testId="card-system">
          <Row label="Uptime">{uptimeText(system.uptime)}</Row>
          <Row label="CPU">{system.cpuUsage}%</Row>
          <Row label="Memory">{system.memoryUsage}%</Row>
          <Row label="Heap">{system.heapUsedMB} MB</Row>
          <Row label="Resident memory">{system.rssUsedMB} MB</Row>
        </StatCard>
        <StatCard title="Domain Monitoring" icon={Globe} testId="card-monitoring">
          <Row label="Total domains">{domains.totalDomains}</Row>
          <Row label="Average scan time">{domains.avgScanTime} s</Row>
          <Row label="Failed scans (24 h)">{domains.failedScans}</Row>
          <Row label="Scheduled scans">{monitoring.scheduledScans}</Row>
          <Row label="Continuous monitoring">
            <Badge variant={monitoring.continuousMonitoringActive ? 'secondary' : 'destructive'}>{monitoring.continuousMonitoringActive ? 'Active' : 'Inactive'}</Badge>
          </Row>
        </StatCard>
        <StatCard title="User Statistics" icon={Users} testId="card-users">
          <Row label="Total users">{users.totalUsers}</Row>
          <Row label="Active users">{users.activeUsers}</Row>
          <Row label="Premium subscribers">{users.premiumUsers}</Row>
          <Row label="Alerts sent (24 h)">{monitoring.alertsLast24h}</Row>
          <Row label="Notifications sent">{monitoring.notificationsSent}</Row>
        </StatCard>
        <StatCard
          title="System Resources"
          icon={Cpu}
          testId="card-resources"
          footer={
            <div className="space-y-3">
              <Bar label="CPU" value={system.cpuUsage} />
              <Bar label="Memory" value={system.memoryUsage} />
              <Bar label="Disk" value={system.diskUsage} />
            </div>
          }
        />
        <StatCard title="Gateway Traffic" icon={Network} testId="card-gateway">
          <Row label="Requests per second">{gateway.requestsPerSecond}</Row>
          <Row label="Errors (5xx)">{gateway.errorRate}%</Row>
          <Row label="95th percentile">{gateway.p95Ms === null ? '–' : `${gateway.p95Ms} ms`}</Row>
          <Row label="Requests since start">{gateway.requestsTotal.toLocaleString('en-US')}</Row>
        </StatCard>
      </div>

      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle as="h3" className="text-lg">
              Services
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ScrollX label="Services">
              <table className="w-full text-left text-sm" data-testid="services-table">
                <thead className="text-muted-foreground">
                  <tr>
                    <th className="py-2 pr-3 font-medium">Service</th>
                    <th className="py-2 pr-3 font-medium">Pool</th>
                    <th className="py-2 pr-3 font-medium">Avg query</th>
                    <th className="py-2 pr-3 font-medium">Memory</th>
                    <th className="py-2 font-medium">Uptime</th>
                  </tr>
                </thead>
                <tbody>
                  {stats.services.map((s) => (
                    <tr key={s.service} className="border-t" data-testid={`service-${s.service}`}>
                      <td className="py-2 pr-3 font-medium">
                        {s.service}
                        {!s.reachable ? (
                          <Badge variant="destructive" className="ml-2">
                            no answer
                          </Badge>
                        ) : null}
                      </td>
                      <td className="py-2 pr-3 tabular-nums">{s.pool ? `${s.pool.total - s.pool.idle} / ${s.pool.max}${s.pool.waiting > 0 ? ` (${s.pool.waiting} waiting)` : ''}` : '–'}</td>
                      <td className="py-2 pr-3 tabular-nums">{s.queries ? `${s.queries.avgMs} ms` : '–'}</td>
                      <td className="py-2 pr-3 tabular-nums">{s.reachable ? `${s.process.rssMB} MB` : '–'}</td>
                      <td className="py-2 tabular-nums">{s.reachable ? uptimeText(s.process.uptimeSeconds) : '–'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollX>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as="h3" className="text-lg">
              Queues
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ScrollX label="Queues">
              <table className="w-full text-left text-sm" data-testid="queues-table">
                <thead className="text-muted-foreground">
                  <tr>
                    <th className="py-2 pr-3 font-medium">Queue</th>
                    <th className="py-2 pr-3 font-medium">Waiting</th>
                    <th className="py-2 pr-3 font-medium">Active</th>
                    <th className="py-2 pr-3 font-medium">Delayed</th>
                    <th className="py-2 font-medium">Failed</th>
                  </tr>
                </thead>
                <tbody>
                  {stats.queues.map((q) => (
                    <tr key={q.name} className="border-t tabular-nums" data-testid={`queue-${q.name}`}>
                      <td className="py-2 pr-3 font-medium">{q.name}</td>
                      <td className="py-2 pr-3">{q.waiting}</td>
                      <td className="py-2 pr-3">{q.active}</td>
                      <td className="py-2 pr-3">{q.delayed}</td>
                      <td className="py-2">{q.failed > 0 ? <span className="font-semibold text-destructive">{q.failed}</span> : 0}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollX>
          </CardContent>
        </Card>
      </div>
      <HistoryCard history={stats.history} now={stats.measuredAt} />
      <BlocklistsCard blocklists={stats.blocklists} now={stats.measuredAt} />
    </div>
  );
}
