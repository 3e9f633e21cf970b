import type { ReactNode } from 'react';
import { planLabel, type User } from '@sendwell/contracts';
import { formatUserDate, reportsUsedText } from '@/lib/display';
import { NavLink } from 'react-router';
import { useOnDemand } from '@/components/ui/on-demand';
import type * as TooltipModuleNs from '@/components/ui/tooltip';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { Logo } from './logo';
import { visibleNavItems } from './nav-items';
import { UsageMeter } from './usage-meter';

export interface Usage {
  used: number;
  limit: number;
}

/** Sidebar of the signed-in shell: the visibility table, plan label and the two counters (part 1 §2). */
type TooltipModule = typeof TooltipModuleNs;
const loadTooltips = () => import('@/components/ui/tooltip');

function WithTooltipProvider({ tooltips, children }: { tooltips: TooltipModule | null; children: ReactNode }) {
  return tooltips ? <tooltips.TooltipProvider>{children}</tooltips.TooltipProvider> : <>{children}</>;
}

export function AppSidebar({
  user,
  collapsed,
  domains,
  reports,
  renewal = null,
}: {
  user: User;
  /** The paid period's end and whether the plan renews then or ends; null without a subscription. */
  renewal?: { date: string; ends: boolean } | null;
  collapsed: boolean;
  /** Active plus deleted domains against the sidebar limit; null while unknown. */
  domains: Usage | null;
  /** Stored reports against the quota; null when the plan has none or the count is unavailable. */
  reports: Usage | null;
}) {
  // The collapsed sidebar names its icons in tooltips, whose code loads only once it is collapsed.
  const tooltips = useOnDemand(loadTooltips, collapsed);
  const items = visibleNavItems(user);
  const reportText = reports ? reportsUsedText(reports.used, user.planType) : null;
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className={cn('flex h-16 items-center border-b', collapsed ? 'justify-center' : 'px-4')}>
        <NavLink to={paths.dashboard} aria-label="Sendwell home">
          <Logo compact={collapsed} />
        </NavLink>
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto p-2">
        <WithTooltipProvider tooltips={collapsed ? tooltips : null}>
        <ul className="space-y-1">
          {items.map(({ to, label, icon: Icon }) => {
            const link = (
              <NavLink
                to={to}
                aria-label={collapsed ? label : undefined}
                className={({ isActive }) =>
                  cn(
                    'flex h-10 items-center gap-3 rounded-md px-3 text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground',
                    isActive ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
                    collapsed && 'justify-center px-0',
                  )
                }
              >
                <Icon className="h-5 w-5 shrink-0" aria-hidden="true" />
                {collapsed ? null : <span>{label}</span>}
              </NavLink>
            );
            return <li key={to}>{collapsed && tooltips ? <tooltips.Tooltip content={label}>{link}</tooltips.Tooltip> : link}</li>;
          })}
        </ul>
        </WithTooltipProvider>
      </nav>
      {collapsed ? null : (
        <div className="space-y-3 border-t p-4">
          <p className="text-sm font-semibold" data-testid="plan-label">
            {planLabel(user.planType)}
          </p>
          {renewal ? (
            <p className="text-xs text-muted-foreground" data-testid="plan-renewal">
              {renewal.ends ? 'Ends' : 'Renews'} {formatUserDate(renewal.date, user.dateFormat, user.timezone)}
            </p>
          ) : null}
          {domains ? (
            <UsageMeter label="Domains used" text={`${domains.used} / ${domains.limit}`} used={domains.used} limit={domains.limit} />
          ) : null}
          {reports && reportText ? <UsageMeter label="Reports used" text={reportText} used={reports.used} limit={reports.limit} /> : null}
        </div>
      )}
    </div>
  );
}

/** On any /quick-check route: no domain or report reads (part 1 §2). */
export function QuickCheckSidebar({ collapsed }: { collapsed: boolean }) {
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className={cn('flex h-16 items-center border-b', collapsed ? 'justify-center' : 'px-4')}>
        <NavLink to={paths.landing} aria-label="Sendwell home">
          <Logo compact={collapsed} />
        </NavLink>
      </div>
      {collapsed ? null : (
        <div className="flex-1 space-y-3 p-4">
          <p className="text-sm font-semibold">Quick Domain Test</p>
          <UsageMeter label="Domains" text="1 of 1 domains used" used={1} limit={1} />
          <p className="text-xs text-muted-foreground">Create a free account to monitor this domain and get alerts when something breaks.</p>
        </div>
      )}
    </div>
  );
}
