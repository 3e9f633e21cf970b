/**
 * Local parts that name a function rather than a person (RFC 2142 mailbox names and the usual
 * company aliases). Mail to them reaches several people or none, draws complaints and is a common
 * spam-trap pattern, so list tools rate them risky.
 */
export const ROLE_LOCAL_PARTS: ReadonlySet<string> = new Set([
  'abuse', 'accounting', 'accounts', 'admin', 'administrator', 'all', 'billing', 'careers', 'compliance',
  'contact', 'contactus', 'customercare', 'customerservice', 'customersupport', 'devnull', 'dns', 'donotreply',
  'do-not-reply', 'enquiries', 'enquiry', 'everyone', 'feedback', 'finance', 'ftp', 'help', 'helpdesk',
  'hostmaster', 'hr', 'info', 'information', 'inquiries', 'inquiry', 'investors', 'it', 'jobs', 'legal',
  'list', 'list-request', 'mail', 'mailer-daemon', 'marketing', 'media', 'news', 'newsletter', 'noc',
  'noreply', 'no-reply', 'office', 'orders', 'postmaster', 'press', 'privacy', 'registrar', 'root', 'sales',
  'security', 'service', 'services', 'staff', 'support', 'sysadmin', 'team', 'tech', 'usenet', 'uucp',
  'webmaster', 'www',
]);

/** Case-insensitive, ignoring a `+tag` subaddress and surrounding quotes. */
export function isRoleBased(local: string): boolean {
  const bare = local.replace(/^"|"$/g, '').toLowerCase().split('+')[0] ?? '';
  return ROLE_LOCAL_PARTS.has(bare);
}
