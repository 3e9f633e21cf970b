/**
 * The DNS providers of the fixing guide's picker (part 2 §2.7), each with the way to its DNS records
 * and its own documentation. Hosts are written the way each panel asks for them: most want the part
 * before the domain ("_dmarc", "@" for the domain itself), Route 53 and Google Cloud DNS the full name.
 */
export interface RecordToPublish {
  type: 'TXT' | 'CNAME';
  /** Fully qualified, without the trailing dot. */
  host: string;
  value: string;
}

export const dnsProviderIds = ['cloudflare', 'godaddy', 'namecheap', 'route53', 'google', 'bluehost', 'hostgator', 'siteground', 'networksolutions', 'hover', 'other'] as const;
export type DnsProviderId = (typeof dnsProviderIds)[number];

interface DnsProvider {
  name: string;
  docsUrl: string | null;
  /** Whether the panel takes the full name (else the part before the domain, "@" for the apex). */
  fullHostName: boolean;
  /** Where the records are, before adding one. */
  open: (domain: string) => string[];
  /** The field names of the add-record form. */
  fields: { host: string; value: string; save: string };
  /** Something this panel does that trips people up, if anything. */
  note?: string;
}

export const dnsProviders: Record<DnsProviderId, DnsProvider> = {
  cloudflare: {
    name: 'Cloudflare',
    docsUrl: 'https://developers.cloudflare.com/dns/manage-dns-records/how-to/create-dns-records/',
    fullHostName: false,
    open: (d) => [`Log in to the Cloudflare dashboard and select ${d}.`, 'Open DNS → Records.'],
    fields: { host: 'Name', value: 'Content', save: 'Save' },
    note: 'A CNAME for DKIM must be "DNS only" (grey cloud): a proxied record hides the key.',
  },
  godaddy: {
    name: 'GoDaddy',
    docsUrl: 'https://www.godaddy.com/help/add-a-txt-record-19232',
    fullHostName: false,
    open: (d) => ['Sign in to your GoDaddy Domain Portfolio.', `Select ${d}, then DNS.`],
    fields: { host: 'Name', value: 'Value', save: 'Save' },
  },
  namecheap: {
    name: 'Namecheap',
    docsUrl: 'https://www.namecheap.com/support/knowledgebase/article.aspx/317/2237/how-do-i-add-txtspfdkimdmarc-records-for-my-domain/',
    fullHostName: false,
    open: (d) => ['Sign in and open Domain List.', `Select Manage next to ${d}, then the Advanced DNS tab.`],
    fields: { host: 'Host', value: 'Value', save: 'the green check mark' },
  },
  route53: {
    name: 'Amazon Route 53',
    docsUrl: 'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/resource-record-sets-creating.html',
    fullHostName: true,
    open: (d) => ['Open the Route 53 console and choose Hosted zones.', `Select the zone ${d}, then Create record.`],
    fields: { host: 'Record name', value: 'Value', save: 'Create records' },
    note: 'Route 53 wants a TXT value in double quotes, and a value over 255 characters split into quoted strings.',
  },
  google: {
    name: 'Google Cloud DNS',
    docsUrl: 'https://cloud.google.com/dns/docs/records',
    fullHostName: true,
    open: (d) => ['Open Cloud DNS in the Google Cloud console.', `Select the zone for ${d}, then Add standard.`],
    fields: { host: 'DNS name', value: 'TXT data', save: 'Create' },
  },
  bluehost: {
    name: 'Bluehost',
    docsUrl: 'https://www.bluehost.com/help/article/dns-management-add-edit-or-delete-dns-entries',
    fullHostName: false,
    open: (d) => ['Log in to Bluehost and open Domains.', `Select ${d}, then the DNS tab.`],
    fields: { host: 'Host Record', value: 'TXT Value', save: 'Save' },
  },
  hostgator: {
    name: 'HostGator',
    docsUrl: 'https://www.hostgator.com/help/article/manage-dns-records-with-hostgatorenom',
    fullHostName: false,
    open: (d) => ['Log in to the Customer Portal and open Domains.', `Select More next to ${d}, then DNS.`],
    fields: { host: 'Host', value: 'TXT Value', save: 'Add' },
  },
  siteground: {
    name: 'SiteGround',
    docsUrl: 'https://www.siteground.com/kb/manage-dns-records/',
    fullHostName: false,
    open: (d) => ['Open Site Tools for the site.', `Go to Domain → DNS Zone Editor and select ${d}.`],
    fields: { host: 'Name', value: 'Value', save: 'Create' },
  },
  networksolutions: {
    name: 'Network Solutions',
    docsUrl: 'https://customerservice.networksolutions.com/prweb/PRAuth/webkm/help/article/KC-1060/networksolutions',
    fullHostName: false,
    open: (d) => ['Sign in to your Account Manager and open My Domain Names.', `Select ${d}, then Advanced Tools → Advanced DNS Records.`],
    fields: { host: 'Host', value: 'Text / Alias to', save: 'Save' },
  },
  hover: {
    name: 'Hover',
    docsUrl: 'https://help.hover.com/hc/en-us/articles/217282457-Managing-DNS-records',
    fullHostName: false,
    open: (d) => ['Sign in to Hover.', `Select ${d}, then the DNS tab.`],
    fields: { host: 'Hostname', value: 'Content', save: 'Add Record' },
  },
  other: {
    name: 'Another provider',
    docsUrl: null,
    fullHostName: false,
    open: (d) => [`Sign in where ${d}'s DNS is hosted (the provider its NS records name).`, 'Open the DNS records or zone editor.'],
    fields: { host: 'Name or Host', value: 'Value or Content', save: 'Save' },
  },
};

/** The host as a provider's form wants it: the full name, or the part before the domain ("@" for the domain itself). */
export function hostFor(provider: DnsProviderId, host: string, domain: string): string {
  if (dnsProviders[provider].fullHostName) return host;
  if (host === domain) return '@';
  return host.endsWith(`.${domain}`) ? host.slice(0, -domain.length - 1) : host;
}

/** Step by step for one record at one provider. */
export function providerSteps(provider: DnsProviderId, record: RecordToPublish, domain: string, replaces: boolean): string[] {
  const p = dnsProviders[provider];
  const host = hostFor(provider, record.host, domain);
  return [
    ...p.open(domain),
    replaces
      ? `Find the ${record.type} record whose ${p.fields.host} is ${host} and edit it (keep one record: two ${record.type === 'TXT' ? 'SPF or DMARC records' : 'records'} at one name break both).`
      : `Add a record of type ${record.type} with ${p.fields.host} ${host}.`,
    `Set ${p.fields.value} to the value above (copy it whole), and the TTL to automatic or one hour.`,
    `Select ${p.fields.save}, then use Check again below once the change has had time to spread.`,
  ];
}
