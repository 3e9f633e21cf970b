import { features } from '@sendwell/contracts';
import { BarChart3, CreditCard, FileText, History, Inbox, LayoutDashboard, LifeBuoy, Plug, Server, Settings, type LucideIcon } from 'lucide-react';
import { paths } from '@/config/paths';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

interface NavUser {
  planType: string;
  isAdmin: boolean;
}

/**
 * The sidebar table of part 1 §2, in order. Dashboard points at /dashboard: the table's "/" is the
 * landing page, which sends a signed-in visitor to /dashboard anyway.
 */
export function visibleNavItems(user: NavUser): NavItem[] {
  const plan = user.planType;
  const all: Array<NavItem & { visible: boolean }> = [
    { to: paths.dashboard, label: 'Dashboard', icon: LayoutDashboard, visible: true },
    { to: paths.reports, label: 'Reports', icon: FileText, visible: true },
    { to: paths.inboxPlacement, label: 'Inbox Testing', icon: Inbox, visible: features.inboxPlacement(plan) },
    { to: paths.integrations, label: 'Integrations', icon: Plug, visible: features.chatIntegrations(plan) },
    { to: paths.domainHistory, label: 'Domain History', icon: History, visible: true },
    { to: paths.settings, label: 'Settings', icon: Settings, visible: true },
    // "All plans except free": onetime is not free, so it sees Billing History.
    { to: paths.billing, label: 'Billing History', icon: CreditCard, visible: plan !== 'free' },
    { to: paths.serverStats, label: 'Server Stats', icon: Server, visible: user.isAdmin },
    { to: paths.support, label: 'Help & Support', icon: LifeBuoy, visible: true },
  ];
  return all.filter((i) => i.visible).map(({ visible: _visible, ...item }) => item);
}

export const quickCheckIcon = BarChart3;
