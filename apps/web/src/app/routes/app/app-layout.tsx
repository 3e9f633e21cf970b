import { domainLimit, isPaidPlan, isPlanType, planRules, SIDEBAR_UNKNOWN_PLAN_DOMAIN_LIMIT } from '@sendwell/contracts';
import { Suspense } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { AppShell } from '@/components/layout/app-shell';
import { AppSidebar, type Usage } from '@/components/layout/app-sidebar';
import { ThemeToggle } from '@/components/layout/theme-toggle';
import { UserMenu } from '@/components/layout/user-menu';
import { toast } from '@/components/ui/toast-store';
import { paths } from '@/config/paths';
import { PastDueBanner } from '@/features/billing/components/past-due-banner';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { useSubscriptionStatus } from '@/features/settings/api/get-subscription-status';
import { useDeletedDomains } from '@/lib/api/get-deleted-domains';
import { useDomains } from '@/lib/api/get-domains';
import { useReports } from '@/lib/api/get-reports';
import { useUser, useAuth } from '@/lib/auth/auth-provider';
import { usePageTitle } from '../../route-table-context';

/** Domains used (active plus deleted still restorable) against the sidebar's limit. */
function useDomainUsage(plan: string): Usage | null {
  const active = useDomains();
  const deleted = useDeletedDomains();
  if (!active.data) return null;
  const limit = isPlanType(plan) ? domainLimit(plan) : SIDEBAR_UNKNOWN_PLAN_DOMAIN_LIMIT;
  return { used: active.data.length + (deleted.data?.length ?? 0), limit };
}

/** Stored reports against the plan's quota; nothing for plans without one or while reports cannot be read. */
function useReportUsage(plan: string): Usage | null {
  const quota = isPlanType(plan) ? planRules[plan].reportQuota : null;
  const reports = useReports({ enabled: quota !== null });
  if (quota === null || !reports.data) return null;
  return { used: reports.data.length, limit: quota };
}

/** The signed-in shell: sidebar, top bar with title, theme, bell and avatar menu; screens render in the outlet. */
export function Component() {
  const user = useUser();
  const { signOut } = useAuth();
  // The sidebar's renewal date (part 1 §2): paid plans have a period that renews or ends.
  const status = useSubscriptionStatus({ enabled: isPaidPlan(user.planType) });
  // Past due, the new period is unpaid: the banner speaks for it, and no renewal date is promised.
  const periodEnd = isPaidPlan(user.planType) && status.data?.status !== 'past_due' ? status.data?.currentPeriodEnd : null;
  const renewal = periodEnd ? { date: periodEnd, ends: status.data?.cancelAtPeriodEnd ?? false } : null;
  const navigate = useNavigate();
  const title = usePageTitle();
  const domains = useDomainUsage(user.planType);
  const reports = useReportUsage(user.planType);

  const onLogout = async () => {
    await signOut();
    navigate(paths.login);
    toast({ title: 'Logged out', description: 'You have been successfully logged out.' });
  };

  return (
    <AppShell
      title={title}
      sidebar={({ collapsed }) => <AppSidebar user={user} collapsed={collapsed} domains={domains} reports={reports} renewal={renewal} />}
      actions={
        <>
          <ThemeToggle />
          <NotificationBell user={user} />
          <UserMenu user={user} onLogout={onLogout} />
        </>
      }
    >
      <title>{`${title} · Sendwell`}</title>
      <PastDueBanner status={isPaidPlan(user.planType) ? status.data?.status : null} plan={user.planType} />
      {/* A screen visited for the first time suspends while its code loads. */}
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
    </AppShell>
  );
}
