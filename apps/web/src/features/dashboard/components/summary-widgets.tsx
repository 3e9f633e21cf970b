import { domainLimit, type Domain } from '@sendwell/contracts';
import { displayDomainStatus, lastScanText } from '@/lib/display';
import { AlertTriangle, CheckCircle2, Clock, Globe, XCircle } from 'lucide-react';
import type { ComponentType } from 'react';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

interface Widget {
  label: string;
  value: string;
  hint?: string;
  icon: ComponentType<{ className?: string }>;
  tone: string;
}

/** Domains monitored, healthy / warning / critical counts and the last scan, at a glance. */
export function SummaryWidgets({ domains, plan, now }: { domains: Domain[] | undefined; plan: string; now: number }) {
  if (!domains) {
    return (
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5" aria-busy="true">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-24 rounded-xl" />
        ))}
      </div>
    );
  }
  const count = (s: string) => domains.filter((d) => displayDomainStatus(d.status) === s).length;
  const last = lastScanText(domains.map((d) => d.lastScan), now);
  const widgets: Widget[] = [
    { label: 'Domains monitored', value: String(domains.length), hint: `of ${domainLimit(plan)} on your plan`, icon: Globe, tone: 'text-primary bg-primary/10' },
    { label: 'Healthy', value: String(count('healthy')), icon: CheckCircle2, tone: 'text-green-700 bg-green-600/10 dark:text-green-400' },
    { label: 'Warning', value: String(count('warning')), icon: AlertTriangle, tone: 'text-amber-700 bg-amber-500/10 dark:text-amber-400' },
    { label: 'Critical', value: String(count('critical')), icon: XCircle, tone: 'text-red-700 bg-red-600/10 dark:text-red-400' },
    { label: 'Last scan', value: last === 'No scans yet' ? 'Never' : last.replace('Last scan: ', ''), icon: Clock, tone: 'text-slate-700 bg-slate-500/10 dark:text-slate-300' },
  ];
  return (
    <ul className="grid grid-cols-2 gap-3 lg:grid-cols-5" aria-label="Summary">
      {widgets.map(({ label, value, hint, icon: Icon, tone }, i) => (
        <li key={label} className={cn(i === 0 && 'col-span-2 lg:col-span-1')}>
          <Card className="flex h-full items-start justify-between gap-2 p-4" data-testid={`widget-${label.toLowerCase().replace(/\s+/g, '-')}`}>
            <div className="min-w-0">
              <p className="text-xs font-medium text-muted-foreground">{label}</p>
              <p className={cn('mt-1 font-bold tracking-tight', value.length > 6 ? 'text-lg leading-8' : 'text-2xl')}>{value}</p>
              {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
            </div>
            <span className={cn('flex h-9 w-9 shrink-0 items-center justify-center rounded-lg', tone)}>
              <Icon className="h-5 w-5" aria-hidden="true" />
            </span>
          </Card>
        </li>
      ))}
    </ul>
  );
}
