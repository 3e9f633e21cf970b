import type { OutgoingMail } from '@sendwell/server-kit';

interface Recipient {
  email: string;
  username: string;
  firstName: string | null;
}

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function layout(greeting: string, paragraphs: string[], action: { label: string; link: string }, footer: string): string {
  const p = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  return [
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">',
    '<div style="max-width:560px;margin:0 auto;padding:24px">',
    '<h1 style="font-size:20px;margin:0 0 16px">Sendwell</h1>',
    p(greeting),
    ...paragraphs.map(p),
    `<p style="margin:24px 0"><a href="${escapeHtml(action.link)}" style="background:#2563eb;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`,
    p('If the button does not work, copy this link into your browser:'),
    `<p style="margin:0 0 16px;word-break:break-all"><a href="${escapeHtml(action.link)}">${escapeHtml(action.link)}</a></p>`,
    `<p style="margin:24px 0 0;font-size:12px;color:#6b7280">${escapeHtml(footer)}</p>`,
    '</div></body></html>',
  ].join('\n');
}

const greet = (r: Recipient) => `Hi ${r.firstName ?? r.username},`;

export function verificationMail(recipient: Recipient, link: string): OutgoingMail {
  const intro = 'Thanks for signing up for Sendwell. Please confirm your email address to activate your account.';
  const expiry = 'This link expires in 24 hours.';
  const footer = 'If you did not create a Sendwell account, you can ignore this email.';
  return {
    to: recipient.email,
    subject: 'Verify your email address for Sendwell',
    text: `${greet(recipient)}\n\n${intro}\n\n${link}\n\n${expiry}\n\n${footer}\n`,
    html: layout(greet(recipient), [intro, expiry], { label: 'Verify email address', link }, footer),
    link,
  };
}

export function passwordResetMail(recipient: Recipient, link: string): OutgoingMail {
  const intro = 'We received a request to reset the password of your Sendwell account. Choose a new password with the link below.';
  const expiry = 'This link expires in one hour and can be used once. Resetting your password signs you out everywhere.';
  const footer = 'If you did not ask for a password reset, you can ignore this email; your password stays the same.';
  return {
    to: recipient.email,
    subject: 'Reset your Sendwell password',
    text: `${greet(recipient)}\n\n${intro}\n\n${link}\n\n${expiry}\n\n${footer}\n`,
    html: layout(greet(recipient), [intro, expiry], { label: 'Reset password', link }, footer),
    link,
  };
}

/** Sent after a password change from Settings, so an owner whose session was taken over hears of it. */
export function passwordChangedMail(recipient: Recipient, loginLink: string): OutgoingMail {
  const intro = 'The password of your Sendwell account was just changed. Every other device was signed out.';
  const advice = 'If you did not change it, reset your password now with "Forgot password" on the sign-in page, and check your account.';
  const footer = 'You receive this email because it concerns the security of your account.';
  return {
    to: recipient.email,
    subject: 'Your Sendwell password was changed',
    text: `${greet(recipient)}\n\n${intro}\n\n${advice}\n\n${loginLink}\n\n${footer}\n`,
    html: layout(greet(recipient), [intro, advice], { label: 'Go to sign in', link: loginLink }, footer),
    link: loginLink,
  };
}
