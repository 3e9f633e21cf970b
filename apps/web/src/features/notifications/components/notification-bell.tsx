import { features, type User } from '@sendwell/contracts';
import { relativeTime } from '@/lib/display';
import { Bell, Sparkles, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { useOnDemand } from '@/components/ui/on-demand';
import { paths } from '@/config/paths';
import { storageKeys } from '@/config/storage-keys';
import { useNow } from '@/lib/hooks/use-now';
import { groupNotifications, localNotifications, useLocalNotifications } from '@/lib/notifications/local-notifications';
import { useAlerts } from '../api/get-alerts';
import { useMarkAlertRead } from '../api/mark-alert-read';
import { useMarkAllAlertsRead } from '../api/mark-all-alerts-read';
import { useNewReportDetection } from '../hooks/use-new-report-detection';
import { bellBadgeCount, bellBadgeText, showsFreePromo } from '../lib/badge-count';
import { splitRecentAlerts } from '../lib/recent-alerts';

const MAX_ALERTS = 5;
// The popover's code (Radix and its positioning) loads when the user reaches for the bell.
const loadPopover = () => import('@radix-ui/react-popover');

/** The bell of part 1 §2: local report notifications, alerts (advanced), the free-plan promo. */
export function NotificationBell({ user }: { user: User }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const headingId = useId();
  const [promoDismissed, setPromoDismissed] = useState(() => localStorage.getItem(storageKeys.freePromoDismissed) === 'true');
  useNewReportDetection(user.planType);
  const local = useLocalNotifications();
  const alertsEnabled = features.alertsInBell(user.planType);
  const alerts = useAlerts({ enabled: alertsEnabled });
  const markRead = useMarkAlertRead();
  const markAllRead = useMarkAllAlertsRead();
  const now = useNow();

  const shownAlerts = alertsEnabled ? (alerts.data ?? []).slice(0, MAX_ALERTS) : [];
  const unreadAlerts = alertsEnabled ? (alerts.data ?? []).filter((a) => !a.isRead).length : 0;
  const unreadLocal = local.items.filter((n) => !n.isRead).length;
  const inputs = { plan: user.planType, unreadLocal, unreadAlerts, promoDismissed };
  const count = bellBadgeCount(inputs);
  const badge = bellBadgeText(inputs);
  const groups = groupNotifications(local.items);
  const promo = showsFreePromo(user.planType, promoDismissed);

  const go = (to: string) => {
    setOpen(false);
    navigate(to);
  };

  // The newest alerts under "Last 24 hours" (recent, part 1 §4) and "Earlier", so an old unread alert is not read as new.
  const { recent: recentAlerts, earlier: earlierAlerts } = splitRecentAlerts(shownAlerts, now);
  const alertList = (key: 'recent' | 'earlier', label: string, list: typeof shownAlerts) =>
    list.length === 0 ? null : (
      <>
        <h4 id={`${headingId}-${key}`} className="px-4 pt-2 text-xs text-muted-foreground">
          {label}
        </h4>
        <ul aria-labelledby={`${headingId}-${key}`}>
          {list.map((alert) => (
            <li key={alert.id} className="flex items-start gap-2 px-4 py-2 hover:bg-accent">
              <button type="button" className="flex-1 text-left" onClick={() => go(paths.dashboard)}>
                <span className={`block text-sm ${alert.isRead ? '' : 'font-semibold'}`}>{alert.title}</span>
                <span className="block text-xs text-muted-foreground">
                  {alert.domainName} · {relativeTime(alert.createdAt, now)}
                </span>
              </button>
              {!alert.isRead ? (
                <button type="button" className="text-xs text-primary hover:underline" onClick={() => markRead.mutate(alert.id)}>
                  Mark read
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      </>
    );

  const [wanted, setWanted] = useState(false);
  const Popover = useOnDemand(loadPopover, wanted);
  const focused = useRef(false);
  const bell = (props: object) => (
    // Named by its content, not aria-label, so the visible badge is part of the name (WCAG 2.5.3): "Notifications, 3 unread".
    <Button variant="ghost" size="icon" className="relative" {...props}>
      <Bell className="h-5 w-5" aria-hidden="true" />
      <span className="sr-only">{count > 0 ? 'Notifications, ' : 'Notifications'}</span>
      {badge ? (
        <>
          <span
            data-testid="bell-badge"
            className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-bold text-white"
          >
            {badge}
          </span>
          <span className="sr-only"> unread</span>
        </>
      ) : null}
    </Button>
  );
  if (!Popover) {
    return bell({
      onPointerEnter: () => setWanted(true),
      onFocus: () => {
        focused.current = true;
        setWanted(true);
      },
      onBlur: () => (focused.current = false),
      onClick: () => {
        setWanted(true);
        setOpen(true);
      },
    });
  }

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>{bell({ autoFocus: focused.current })}</Popover.Trigger>
      <Popover.Portal>
        <Popover.Content aria-labelledby={headingId} align="end" sideOffset={8} className="z-50 w-[min(22rem,calc(100vw-1rem))] rounded-lg border bg-card text-card-foreground shadow-lg">
          <div className="flex items-center justify-between border-b px-4 py-3">
            <h2 id={headingId} className="text-sm font-semibold">
              Notifications
            </h2>
            {unreadLocal > 0 || unreadAlerts > 0 ? (
              <button
                type="button"
                className="text-xs font-medium text-primary hover:underline"
                onClick={() => {
                  localNotifications.markAllRead();
                  if (unreadAlerts > 0) markAllRead.mutate();
                }}
              >
                Mark all read
              </button>
            ) : null}
          </div>
          <div className="max-h-96 overflow-y-auto">
            {promo ? (
              <div className="relative m-3 rounded-md border border-blue-200 bg-blue-50 p-3 pr-8 text-blue-950 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-50">
                <p className="flex items-center gap-2 text-sm font-semibold">
                  <Sparkles className="h-4 w-4" aria-hidden="true" /> Unlock Premium Features
                </p>
                <p className="mt-1 text-xs">Scheduled scans, reputation scores, alerts and reports for up to 10 domains.</p>
                <button type="button" className="mt-2 text-xs font-semibold underline" onClick={() => go(paths.subscription)}>
                  View plans
                </button>
                <button
                  type="button"
                  aria-label="Dismiss promotion"
                  className="absolute right-2 top-2 rounded p-0.5 hover:bg-blue-100 dark:hover:bg-blue-900"
                  onClick={() => {
                    localStorage.setItem(storageKeys.freePromoDismissed, 'true');
                    setPromoDismissed(true);
                  }}
                >
                  <X className="h-3.5 w-3.5" aria-hidden="true" />
                </button>
              </div>
            ) : null}
            {shownAlerts.length > 0 ? (
              <section aria-label="Domain alerts">
                <h3 className="px-4 pt-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">Alerts</h3>
                {alertList('recent', 'Last 24 hours', recentAlerts)}
                {alertList('earlier', 'Earlier', earlierAlerts)}
              </section>
            ) : null}
            {groups.length > 0 ? (
              <section aria-label="Report notifications">
                <h3 className="px-4 pt-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">Reports</h3>
                <ul>
                  {groups.map((g) => (
                    <li key={g.message}>
                      <button type="button" className="w-full px-4 py-2 text-left hover:bg-accent" onClick={() => go(paths.reports)}>
                        <span className={`block text-sm ${g.unread > 0 ? 'font-semibold' : ''}`}>
                          {g.message}
                          {g.count > 1 ? ` (${g.count})` : ''}
                        </span>
                        <span className="block text-xs text-muted-foreground">{relativeTime(g.latestAt)}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
            {!promo && shownAlerts.length === 0 && groups.length === 0 ? (
              <p className="px-4 py-6 text-center text-sm text-muted-foreground">You're all caught up.</p>
            ) : null}
          </div>
          <div className="border-t p-2">
            <Button variant="ghost" size="sm" className="w-full" onClick={() => go(paths.reports)}>
              View all reports
            </Button>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
