import { planLabel } from '@sendwell/contracts';
import type { OutgoingMail } from '@sendwell/server-kit';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The mail a failed renewal sends: what happened, what it means, and the one step that fixes it. */
export function pastDueMail(to: { email: string; firstName: string | null }, plan: string, appUrl: string): OutgoingMail {
  const link = `${appUrl}/update-payment`;
  const greeting = to.firstName ? `Hi ${to.firstName},` : 'Hello,';
  const text = [
    greeting,
    '',
    `We could not charge your card for the renewal of ${planLabel(plan)}. Your account is past due.`,
    'Stripe will try again over the next days; if every attempt fails, your account moves to the Free plan and your domains stop being monitored.',
    '',
    `Update your card: ${link}`,
    '',
    'Sendwell',
  ].join('\n');
  const html = `<p>${escape(greeting)}</p><p>We could not charge your card for the renewal of <strong>${escape(planLabel(plan))}</strong>. Your account is past due.</p><p>Stripe will try again over the next days; if every attempt fails, your account moves to the Free plan and your domains stop being monitored.</p><p><a href="${escape(link)}">Update your card</a></p><p>Sendwell</p>`;
  return { to: to.email, subject: 'Your Sendwell payment failed', text, html, link };
}
