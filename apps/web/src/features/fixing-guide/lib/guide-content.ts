import type { FixingGuideType } from '@/lib/display';

/** What each guide explains besides the records (part 2 §2.7): about, common issues, troubleshooting. */
export const guideContent: Record<FixingGuideType, { title: string; about: string; commonIssues: string[]; troubleshooting: string[] }> = {
  spf: {
    title: 'SPF',
    about:
      'SPF (RFC 7208) is a TXT record at your domain listing the servers allowed to send mail as it. Receivers compare the sending server with the list; DMARC then uses the result.',
    commonIssues: [
      'Two SPF records at the same name: receivers treat that as an error and ignore both. Merge them into one.',
      'More than 10 DNS lookups (include, a, mx, exists, redirect): the record fails with a permanent error.',
      'A service that sends for you (newsletter, CRM, help desk) is missing, so its mail fails SPF.',
      '+all or ?all at the end: anyone may send as your domain.',
    ],
    troubleshooting: [
      'Check the record has one line starting with v=spf1 and nothing before it.',
      'Quotes are part of how some panels show TXT values; do not type extra quotes inside the value.',
      'After a provider change, remove its old include: stale includes still cost lookups.',
    ],
  },
  dkim: {
    title: 'DKIM',
    about:
      'DKIM (RFC 6376) signs each message with a private key held by your mail provider; the public key sits in DNS at {selector}._domainkey.{domain} so receivers can verify the signature.',
    commonIssues: [
      'The key was published but signing was never turned on at the mail provider.',
      'A long key was cut by the DNS panel: 2048-bit keys need the value split into strings of 255 characters.',
      'The selector in the record does not match the one your provider signs with.',
      'Sendwell checks the common selectors; a custom selector it has not seen shows DKIM as missing even when mail is signed.',
    ],
    troubleshooting: [
      'Open a message you sent, show the original, and look for DKIM-Signature: its s= tag is the selector.',
      'For a CNAME (Microsoft 365, Fastmail), the record type must be CNAME, not TXT.',
      'On Cloudflare, set the CNAME to DNS only: a proxied record does not resolve to the key.',
    ],
  },
  dmarc: {
    title: 'DMARC',
    about:
      'DMARC (RFC 7489) tells receivers what to do with mail that fails SPF and DKIM alignment (none, quarantine or reject) and where to send reports about it. It lives in a TXT record at _dmarc.{domain}.',
    commonIssues: [
      'Jumping straight to p=reject before every sender passes: your own newsletters and invoices are refused.',
      'No rua= tag: nobody sees the reports, so nobody knows which senders fail.',
      'The record was put at the domain instead of _dmarc.{domain}.',
      'pct below 100 left in place after testing: the policy covers only part of the mail.',
    ],
    troubleshooting: [
      'The record must start with v=DMARC1; followed by p=.',
      'A rua address at another domain needs that domain to publish an authorisation record (RFC 7489 §7.1).',
      'Move one step at a time: none → quarantine → reject, reading the reports in between.',
    ],
  },
  blacklist: {
    title: 'blacklist listings',
    about:
      'Blocklists (DNSBLs, RFC 5782) list addresses and domains that sent spam or look compromised. Receivers query them and refuse or junk mail from listed addresses.',
    commonIssues: [
      'A compromised mailbox or website form sending spam from your server.',
      'A shared or newly assigned IP address that was listed before you had it.',
      'Missing reverse DNS (PTR) or a generic one, which some lists treat as a dynamic address.',
      'Sending to old or purchased lists that hit spam traps.',
    ],
    troubleshooting: [
      'Find and stop the cause first: a delisting without a fix is followed by a new listing.',
      'Request removal through each list’s own form (the Removal links); most lists delist within 24 hours.',
      'Some lists expire listings on their own after a quiet period and offer no form.',
    ],
  },
};
