import { emailVerificationReasons, type EmailCategory } from '@sendwell/contracts';
import type { BadgeVariant } from '@/lib/display';

/** Category labels, banners and badges of the verification tool (part 2 §2.15, §9). */
const known: Record<EmailCategory, { label: string; banner: string | null; badge: BadgeVariant }> = {
  send_to: { label: 'Safe to Send', banner: 'This email address is valid and safe to send emails to.', badge: 'secondary' },
  risky: { label: 'Risky', banner: 'This email address may be risky. Consider additional verification before sending important emails.', badge: 'outline' },
  do_not_send: { label: 'Do Not Send', banner: 'This email address should not be used for sending emails.', badge: 'destructive' },
  error: { label: 'Error', banner: null, badge: 'muted' },
  unknown: { label: 'Unknown', banner: null, badge: 'default' },
};

export function categoryDisplay(category: string) {
  return known[category as EmailCategory] ?? known.unknown;
}

/** The reference card: each category with the reasons that lead to it, from the contracts. */
export const referenceGroups = (['send_to', 'risky', 'do_not_send'] as const).map((category) => ({
  category,
  label: known[category].label,
  reasons: Object.values(emailVerificationReasons)
    .filter((r) => r.category === category)
    .map((r) => r.label),
}));
