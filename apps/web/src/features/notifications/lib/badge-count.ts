import { features } from '@sendwell/contracts';
import { badgeCountText } from '@/lib/display';

export interface BadgeInputs {
  plan: string;
  unreadLocal: number;
  unreadAlerts: number;
  promoDismissed: boolean;
}

/**
 * Local notifications + unread alerts (advanced only) + 1 for the free-plan promo while it shows
 * (part 1 §2 bell).
 */
export function bellBadgeCount({ plan, unreadLocal, unreadAlerts, promoDismissed }: BadgeInputs): number {
  const alerts = features.alertsInBell(plan) ? unreadAlerts : 0;
  const promo = showsFreePromo(plan, promoDismissed) ? 1 : 0;
  return unreadLocal + alerts + promo;
}

export function showsFreePromo(plan: string, dismissed: boolean): boolean {
  return plan === 'free' && !dismissed;
}

/** '99+' above 99, nothing at 0 (contracts' rule). */
export function bellBadgeText(inputs: BadgeInputs): string | null {
  return badgeCountText(bellBadgeCount(inputs));
}
