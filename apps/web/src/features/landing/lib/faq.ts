/** The landing FAQ (#faq): 18 answers that match the plan rules in @sendwell/contracts. */
export const faqItems: ReadonlyArray<{ q: string; a: string }> = [
  {
    q: 'What does Sendwell check?',
    a: 'Every scan checks six things: your SPF record, DKIM keys, DMARC policy, blacklist status, the SSL certificate of your domain and the performance of its DNS. Each result comes with a plain-language explanation and a recommendation.',
  },
  {
    q: 'How often are my domains scanned?',
    a: 'On the Free plan you scan on demand with Scan Now. Basic scans every 4 hours, Standard every hour and Advanced every 15 minutes, automatically, around the clock.',
  },
  {
    q: 'Can I start a scan myself?',
    a: 'Yes. On every plan you can run a manual scan of a domain at any time, at most once every 5 minutes per domain, so the DNS servers you depend on are not flooded.',
  },
  {
    q: 'Which blacklists do you check?',
    a: 'We query more than 20 IP-based DNS blocklists (for the addresses in your MX and SPF records) plus domain-based lists, including the widely used Spamhaus, SpamCop and Barracuda lists. Each listing links to the list’s own lookup and removal pages.',
  },
  {
    q: 'How many domains can I monitor?',
    a: 'Free and One-time Check include 1 domain, Basic 2, Standard 5 and Advanced 10. A removed domain still counts toward the limit while it can be restored.',
  },
  {
    q: 'What happens when I remove a domain?',
    a: 'Nothing is lost straight away: a removed domain can be restored, with its scan history, for 90 days. After that it is purged. The Recently Deleted panel lists the domains you removed in the last 30 days with a one-click Re-add.',
  },
  {
    q: 'What is the reputation score?',
    a: 'A score from 0 to 100 built from email authentication (40 points), security and deliverability (35 points) and configuration health (25 points). It is recalculated every day at 2:00 AM and shows whether your domain is improving or declining. It is part of the Standard and Advanced plans.',
  },
  {
    q: 'Do I need to install anything or give you access to my DNS?',
    a: 'No. Sendwell only reads public information: the DNS records of your domain, its mail servers and its SSL certificate. You make any changes yourself at your DNS provider.',
  },
  {
    q: 'Do you read my email?',
    a: 'Never. We do not connect to your mailbox or your mail server’s contents; every check works from public DNS and certificate data.',
  },
  {
    q: 'What are SPF, DKIM and DMARC?',
    a: 'SPF lists the servers allowed to send mail for your domain, DKIM signs each message so receivers can verify it was not altered, and DMARC tells receivers what to do when a message fails those checks and where to send reports. Mailbox providers such as Gmail and Yahoo expect all three from bulk senders.',
  },
  {
    q: 'Will I be alerted when something breaks?',
    a: 'Alerts are recorded on every paid plan and emailed from Basic up. Standard and Advanced add SSL expiry and DNS change alerts, and Advanced also lists alerts in the in-app notification bell.',
  },
  {
    q: 'What reports do I get?',
    a: 'Automated reports arrive monthly on Basic, fortnightly on Standard and weekly on Advanced. You can store 50, 100 or 200 reports respectively and download them as PDF, HTML, JSON or text.',
  },
  {
    q: 'Which integrations are available?',
    a: 'Standard and Advanced connect to Slack, Microsoft Teams, Discord, Zapier, Jira and PagerDuty. Advanced adds marketing platforms (Mailchimp, SendGrid, HubSpot, Constant Contact) and custom webhooks.',
  },
  {
    q: 'How do I fix a problem a scan finds?',
    a: 'Each failing check links to a step-by-step fixing guide for SPF, DKIM, DMARC or blacklist removal, with instructions for common DNS providers such as Cloudflare, GoDaddy, Namecheap and Amazon Route 53. DNS changes usually take 15 minutes to 24 hours to propagate.',
  },
  {
    q: 'Which currencies can I pay in?',
    a: 'Australian, US and Canadian dollars. We suggest one from your location and you can switch it at the top of this page. After your first payment the currency of your account is locked.',
  },
  {
    q: 'Can I change or cancel my plan?',
    a: 'Yes. You can move to another paid plan after confirming the change; it takes effect at the start of your next billing cycle. If you cancel, you keep access until the end of the period you paid for and then move to the Free plan.',
  },
  {
    q: 'Is there a money-back guarantee?',
    a: 'Every paid plan is billed monthly with a 30-day money-back guarantee, no setup fees and no lock-in: cancel anytime.',
  },
  {
    q: 'Can I try it before creating an account?',
    a: 'Yes. Enter a domain above and run a free quick check: it scans the domain and shows the same six results a monitored domain gets. Create a free account to keep watching it.',
  },
];
