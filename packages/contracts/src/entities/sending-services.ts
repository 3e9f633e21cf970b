/**
 * The sending services the mail-flow section names (issue 25). A source address is matched to a
 * service by the ranges its SPF record publishes (resolved and cached by the intake at run time: the
 * ranges change, so they are never copied here) and by the host name its forward-confirmed reverse DNS
 * gives. `fix` is what the domain owner does at that service when its mail fails DMARC alignment.
 *
 * `kind: 'forwarder'` marks services that relay mail sent by someone else (forwarding, lists): their
 * failures are shown apart from spoofing.
 */
export interface SendingService {
  /** Stable id, stored with a named source address. */
  id: string;
  name: string;
  kind: 'sender' | 'forwarder';
  /** SPF records whose ranges are the service's (the `include:` a customer publishes first). */
  spf: readonly string[];
  /** Host-name suffixes of its outbound servers, as their confirmed reverse DNS gives them. */
  hosts: readonly string[];
  fix: {
    /** The `include:` mechanism the domain's SPF record needs, when the service has a shared one. */
    spfInclude: string | null;
    /** How the service signs with the customer's domain: CNAMEs it gives, a key to publish, or a page to follow. */
    dkim: string;
    /** CNAMEs the service has customers publish, with `{domain}` for the customer's domain where it appears. */
    dkimCnames: ReadonlyArray<{ host: string; target: string }>;
  };
}

const noCnames: SendingService['fix']['dkimCnames'] = [];

export const SENDING_SERVICES: readonly SendingService[] = [
  {
    id: 'google-workspace',
    name: 'Google Workspace',
    kind: 'sender',
    spf: ['_spf.google.com'],
    hosts: ['google.com', 'googlemail.com'],
    fix: {
      spfInclude: 'include:_spf.google.com',
      dkim: 'In the Google Admin console (Apps → Google Workspace → Gmail → Authenticate email), generate a key, publish it as a TXT record at google._domainkey and press "Start authentication".',
      dkimCnames: noCnames,
    },
  },
  {
    id: 'microsoft-365',
    name: 'Microsoft 365',
    kind: 'sender',
    spf: ['spf.protection.outlook.com'],
    hosts: ['outbound.protection.outlook.com', 'protection.outlook.com'],
    fix: {
      spfInclude: 'include:spf.protection.outlook.com',
      dkim: 'In the Microsoft Defender portal (Email authentication settings → DKIM), publish the two CNAMEs it shows for the domain, then enable signing.',
      dkimCnames: [
        { host: 'selector1._domainkey', target: 'selector1-{domain-dashed}._domainkey.<tenant>.onmicrosoft.com' },
        { host: 'selector2._domainkey', target: 'selector2-{domain-dashed}._domainkey.<tenant>.onmicrosoft.com' },
      ],
    },
  },
  {
    id: 'amazon-ses',
    name: 'Amazon SES',
    kind: 'sender',
    spf: ['amazonses.com'],
    hosts: ['amazonses.com'],
    fix: {
      spfInclude: 'include:amazonses.com',
      dkim: 'In the SES console, verify the domain with Easy DKIM and publish the three CNAMEs it gives; set a custom MAIL FROM domain so SPF aligns too.',
      dkimCnames: [{ host: '<token>._domainkey', target: '<token>.dkim.amazonses.com' }],
    },
  },
  {
    id: 'sendgrid',
    name: 'SendGrid',
    kind: 'sender',
    spf: ['sendgrid.net'],
    hosts: ['sendgrid.net'],
    fix: {
      spfInclude: 'include:sendgrid.net',
      dkim: 'In SendGrid (Settings → Sender Authentication), authenticate the domain and publish the CNAMEs it gives.',
      dkimCnames: [
        { host: 's1._domainkey', target: 's1.domainkey.<account>.wl.sendgrid.net' },
        { host: 's2._domainkey', target: 's2.domainkey.<account>.wl.sendgrid.net' },
      ],
    },
  },
  {
    id: 'mailchimp',
    name: 'Mailchimp / Mandrill',
    kind: 'sender',
    spf: ['servers.mcsv.net', 'spf.mandrillapp.com'],
    hosts: ['mcsv.net', 'mcdlv.net', 'rsgsv.net', 'mandrillapp.com'],
    fix: {
      spfInclude: 'include:servers.mcsv.net',
      dkim: 'In Mailchimp (Domains → Authenticate), publish the two DKIM CNAMEs.',
      dkimCnames: [
        { host: 'k2._domainkey', target: 'dkim2.mcsv.net' },
        { host: 'k3._domainkey', target: 'dkim3.mcsv.net' },
      ],
    },
  },
  {
    id: 'mailgun',
    name: 'Mailgun',
    kind: 'sender',
    spf: ['mailgun.org'],
    hosts: ['mailgun.net', 'mailgun.org'],
    fix: {
      spfInclude: 'include:mailgun.org',
      dkim: 'In Mailgun (Sending → Domains → DNS records), publish the DKIM TXT record it shows.',
      dkimCnames: noCnames,
    },
  },
  {
    id: 'postmark',
    name: 'Postmark',
    kind: 'sender',
    spf: ['spf.mtasv.net'],
    hosts: ['mtasv.net'],
    fix: {
      spfInclude: null,
      dkim: 'In Postmark (Sender Signatures → DNS settings), publish the DKIM TXT record and the Return-Path CNAME (pm-bounces → pm.mtasv.net) so both align.',
      dkimCnames: [{ host: 'pm-bounces', target: 'pm.mtasv.net' }],
    },
  },
  {
    id: 'sparkpost',
    name: 'SparkPost',
    kind: 'sender',
    spf: ['_spf.sparkpostmail.com'],
    hosts: ['sparkpostmail.com'],
    fix: {
      spfInclude: 'include:_spf.sparkpostmail.com',
      dkim: 'In SparkPost (Configuration → Domains), publish the DKIM TXT record it shows for the sending domain.',
      dkimCnames: noCnames,
    },
  },
  {
    id: 'brevo',
    name: 'Brevo',
    kind: 'sender',
    spf: ['spf.brevo.com', 'spf.sendinblue.com'],
    hosts: ['brevo.com', 'sendinblue.com', 'sender-sib.com'],
    fix: {
      spfInclude: 'include:spf.brevo.com',
      dkim: 'In Brevo (Senders, Domains & Dedicated IPs → Domains), authenticate the domain and publish the DKIM CNAMEs.',
      dkimCnames: [
        { host: 'brevo1._domainkey', target: 'b1.{domain-dashed}.dkim.brevo.com' },
        { host: 'brevo2._domainkey', target: 'b2.{domain-dashed}.dkim.brevo.com' },
      ],
    },
  },
  {
    id: 'zoho',
    name: 'Zoho Mail',
    kind: 'sender',
    spf: ['zohomail.com', 'zoho.com'],
    hosts: ['zoho.com', 'zohomail.com'],
    fix: {
      spfInclude: 'include:zohomail.com',
      dkim: 'In the Zoho Mail admin console (Domains → Email configuration → DKIM), add a selector and publish its TXT record.',
      dkimCnames: noCnames,
    },
  },
  {
    id: 'salesforce',
    name: 'Salesforce',
    kind: 'sender',
    spf: ['_spf.salesforce.com', 'cust-spf.exacttarget.com'],
    hosts: ['salesforce.com', 'exacttarget.com'],
    fix: {
      spfInclude: 'include:_spf.salesforce.com',
      dkim: 'In Salesforce Setup (DKIM Keys), create a key and publish the two CNAMEs it gives.',
      dkimCnames: [{ host: '<selector>._domainkey', target: '<selector>.<id>.custdkim.salesforce.com' }],
    },
  },
  {
    id: 'hubspot',
    name: 'HubSpot',
    kind: 'sender',
    spf: [],
    hosts: ['hubspotemail.net', 'hubspot.net'],
    fix: {
      spfInclude: null,
      dkim: 'In HubSpot (Settings → Domains & URLs → Email sending domains), connect the domain and publish the two DKIM CNAMEs.',
      dkimCnames: [
        { host: 'hs1-<id>._domainkey', target: '{domain-dashed}-hs1-<id>.dkim.hubspotemail.net' },
        { host: 'hs2-<id>._domainkey', target: '{domain-dashed}-hs2-<id>.dkim.hubspotemail.net' },
      ],
    },
  },
  {
    id: 'zendesk',
    name: 'Zendesk',
    kind: 'sender',
    spf: ['mail.zendesk.com'],
    hosts: ['zendesk.com'],
    fix: {
      spfInclude: 'include:mail.zendesk.com',
      dkim: 'In Zendesk (Admin Center → Channels → Email), enable DKIM after publishing its two CNAMEs.',
      dkimCnames: [
        { host: 'zendesk1._domainkey', target: 'zendesk1._domainkey.zendesk.com' },
        { host: 'zendesk2._domainkey', target: 'zendesk2._domainkey.zendesk.com' },
      ],
    },
  },
  {
    id: 'freshdesk',
    name: 'Freshdesk',
    kind: 'sender',
    spf: ['email.freshdesk.com'],
    hosts: ['freshdesk.com', 'freshemail.io'],
    fix: {
      spfInclude: 'include:email.freshdesk.com',
      dkim: 'In Freshdesk (Admin → Email → DKIM), configure the domain and publish the CNAMEs it lists.',
      dkimCnames: noCnames,
    },
  },
  {
    id: 'mailjet',
    name: 'Mailjet',
    kind: 'sender',
    spf: ['spf.mailjet.com'],
    hosts: ['mailjet.com'],
    fix: { spfInclude: 'include:spf.mailjet.com', dkim: 'In Mailjet (Account → Domains and senders), publish the mailjet._domainkey TXT record it gives.', dkimCnames: noCnames },
  },
  {
    id: 'constant-contact',
    name: 'Constant Contact',
    kind: 'sender',
    spf: ['spf.constantcontact.com'],
    hosts: ['constantcontact.com', 'ctctcdn.com'],
    fix: {
      spfInclude: 'include:spf.constantcontact.com',
      dkim: 'In Constant Contact (My Settings → Self-authenticate), publish the two DKIM CNAMEs.',
      dkimCnames: [
        { host: 'ctct1._domainkey', target: '1.{domain-dashed}.dkim.constantcontact.com' },
        { host: 'ctct2._domainkey', target: '2.{domain-dashed}.dkim.constantcontact.com' },
      ],
    },
  },
  {
    id: 'fastmail',
    name: 'Fastmail',
    kind: 'sender',
    spf: ['spf.messagingengine.com'],
    hosts: ['messagingengine.com', 'fastmail.com'],
    fix: {
      spfInclude: 'include:spf.messagingengine.com',
      dkim: 'Publish the three fm1, fm2 and fm3 DKIM CNAMEs Fastmail lists for the domain.',
      dkimCnames: [
        { host: 'fm1._domainkey', target: 'fm1.{domain}.dkim.fmhosted.com' },
        { host: 'fm2._domainkey', target: 'fm2.{domain}.dkim.fmhosted.com' },
        { host: 'fm3._domainkey', target: 'fm3.{domain}.dkim.fmhosted.com' },
      ],
    },
  },
  {
    id: 'proton',
    name: 'Proton Mail',
    kind: 'sender',
    spf: ['_spf.protonmail.ch'],
    hosts: ['protonmail.ch', 'protonmail.com', 'proton.ch'],
    fix: {
      spfInclude: 'include:_spf.protonmail.ch',
      dkim: 'Publish the three protonmail DKIM CNAMEs shown in Proton (Settings → Domain names).',
      dkimCnames: [{ host: 'protonmail._domainkey', target: 'protonmail.domainkey.<id>.domains.proton.ch' }],
    },
  },
  {
    id: 'mimecast',
    name: 'Mimecast',
    kind: 'sender',
    spf: ['_netblocks.mimecast.com'],
    hosts: ['mimecast.com'],
    fix: { spfInclude: 'include:_netblocks.mimecast.com', dkim: 'Create a DNS authentication outbound definition in Mimecast and publish its key.', dkimCnames: noCnames },
  },
  {
    id: 'apple-icloud',
    name: 'Apple iCloud Mail',
    kind: 'sender',
    spf: ['icloud.com'],
    hosts: ['icloud.com', 'me.com'],
    fix: { spfInclude: 'include:icloud.com', dkim: 'Publish the sig1._domainkey CNAME iCloud+ shows for the custom domain.', dkimCnames: [{ host: 'sig1._domainkey', target: 'sig1.dkim.{domain}.at.icloudmailadmin.com' }] },
  },
  // Forwarders: they relay mail someone else sent; failing SPF is expected, DKIM should survive.
  {
    id: 'cloudflare-email-routing',
    name: 'Cloudflare Email Routing',
    kind: 'forwarder',
    spf: ['_spf.mx.cloudflare.net'],
    hosts: ['cloudflare-email.net'],
    fix: { spfInclude: null, dkim: 'Forwarded mail: keep DKIM signing at the original sender, which survives forwarding.', dkimCnames: noCnames },
  },
  {
    id: 'pobox',
    name: 'Pobox',
    kind: 'forwarder',
    spf: ['pobox.com'],
    hosts: ['pobox.com'],
    fix: { spfInclude: null, dkim: 'Forwarded mail: keep DKIM signing at the original sender, which survives forwarding.', dkimCnames: noCnames },
  },
  {
    id: 'forward-email',
    name: 'Forward Email',
    kind: 'forwarder',
    spf: ['spf.forwardemail.net'],
    hosts: ['forwardemail.net'],
    fix: { spfInclude: null, dkim: 'Forwarded mail: keep DKIM signing at the original sender, which survives forwarding.', dkimCnames: noCnames },
  },
  {
    id: 'improvmx',
    name: 'ImprovMX',
    kind: 'forwarder',
    spf: ['spf.improvmx.com'],
    hosts: ['improvmx.com'],
    fix: { spfInclude: null, dkim: 'Forwarded mail: keep DKIM signing at the original sender, which survives forwarding.', dkimCnames: noCnames },
  },
];

const byId = new Map(SENDING_SERVICES.map((service) => [service.id, service]));

export function sendingServiceById(id: string): SendingService | undefined {
  return byId.get(id);
}

/** The catalogue service whose host suffix a confirmed reverse-DNS name ends with, if any. */
export function sendingServiceByHost(host: string): SendingService | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  return SENDING_SERVICES.find((service) => service.hosts.some((suffix) => name === suffix || name.endsWith(`.${suffix}`)));
}
