/**
 * The Documentation screen's guides. Every number that is a product rule (score weights, status
 * factors, labels, plan limits, scan intervals, alert thresholds, report quotas) is read from the
 * contracts here, so a guide cannot drift from what the services do.
 */
import {
  alertTypeLabels,
  alertTypes,
  BLACKLIST_POINTS_PER_LISTING,
  CHECK_STATUS_FACTOR,
  DMARC_POLICY_FACTOR,
  MANUAL_SCAN_COOLDOWN_MS,
  planRules,
  REPORT_TREND_WINDOWS,
  REPUTATION_PART_WEIGHTS,
  REPUTATION_WEIGHTS,
  SSL_EXPIRY_THRESHOLDS,
  TREND_THRESHOLD,
  type PlanType,
} from '@sendwell/contracts';

export const guideCategories = ['monitoring', 'scoring', 'reports'] as const;
export type GuideCategory = (typeof guideCategories)[number];
export const categoryLabels: Record<GuideCategory | 'all', string> = { all: 'All', monitoring: 'Monitoring', scoring: 'Scoring', reports: 'Reports' };

/** A guide's body: paragraphs, bullet lists and tables, nothing rendered from HTML strings. */
export type Block = { p: string } | { list: string[] } | { table: { head: string[]; rows: string[][] } };

export interface Guide {
  id: string;
  category: GuideCategory;
  title: string;
  blocks: Block[];
}

const PAID: PlanType[] = ['basic', 'standard', 'advanced'];
const interval = (ms: number | null) => (ms === null ? 'manual only' : ms >= 3_600_000 ? `every ${ms / 3_600_000} h` : `every ${ms / 60_000} min`);
const factor = (status: keyof typeof CHECK_STATUS_FACTOR) => `${Math.round(CHECK_STATUS_FACTOR[status] * 100)} %`;
const w = REPUTATION_PART_WEIGHTS;
const percent = (n: number) => `${Math.round(n * 100)} %`;

export const guides: Guide[] = [
  {
    id: 'how-monitoring-works',
    category: 'monitoring',
    title: 'How monitoring works',
    blocks: [
      { p: 'Sendwell scans each of your domains for six things that decide whether your mail is delivered: SPF, DKIM, DMARC, blacklist listings, the SSL certificate and DNS performance. Every scan runs every check on every plan; plans differ in how often scans run and in what happens with the results.' },
      { table: { head: ['Plan', 'Domains', 'Scans'], rows: (['free', ...PAID] as PlanType[]).map((p) => [planRules[p].label, String(planRules[p].domainLimit), interval(planRules[p].scanIntervalMs)]) } },
      { p: `You can also start a scan yourself with Scan Now; a domain can be scanned by hand once every ${MANUAL_SCAN_COOLDOWN_MS / 60_000} minutes. Each scan is kept in the domain history, and a change between two scans (a record removed, a policy weakened, a new listing) raises an alert on paid plans.` },
    ],
  },
  {
    id: 'spf',
    category: 'monitoring',
    title: 'SPF: who may send mail for your domain',
    blocks: [
      { p: 'SPF (RFC 7208) is a TXT record starting with v=spf1 that lists the servers allowed to send mail from your domain. Receivers check the sending server against it.' },
      { list: ['Only one SPF record may exist; two make every check fail (RFC 7208 §3.2).', 'Evaluating the record may need at most 10 DNS lookups (include, a, mx, ptr, exists, redirect); past that, receivers treat it as a permanent error (RFC 7208 §4.6.4).', 'The record should end in -all (fail) or ~all (soft fail); +all lets anyone send as you.'] },
      { p: 'Sendwell follows every include, counts the lookups, lists the addresses the record authorises and flags records that are too permissive, too long or broken.' },
    ],
  },
  {
    id: 'dkim',
    category: 'monitoring',
    title: 'DKIM: signatures that prove a message is yours',
    blocks: [
      { p: 'DKIM (RFC 6376) signs each outgoing message; the public key is published at <selector>._domainkey.<your domain>. Sendwell looks for the selectors of common providers (Google, Microsoft 365, SendGrid, Mailchimp and others) and checks each key it finds: that it parses, its algorithm, and that RSA keys are at least 1024 bits (2048 recommended).' },
      { p: 'If your provider uses a selector Sendwell does not know, DKIM may show as missing even though mail is signed: the fixing guide shows how to find your selector.' },
    ],
  },
  {
    id: 'dmarc',
    category: 'monitoring',
    title: 'DMARC: what receivers do with mail that fails',
    blocks: [
      { p: 'DMARC (RFC 7489) is a TXT record at _dmarc.<your domain>. It tells receivers what to do with mail that fails SPF and DKIM alignment (p=none, quarantine or reject) and where to send reports (rua).' },
      { list: ['p=none only monitors: forged mail is still delivered.', 'p=quarantine sends failing mail to spam; p=reject refuses it.', 'pct below 100 applies the policy to only part of the failing mail.', 'Start with p=none and a rua address, read the reports, then move to quarantine and reject.'] },
    ],
  },
  {
    id: 'blacklists',
    category: 'monitoring',
    title: 'Blacklists',
    blocks: [
      { p: 'Blacklists (DNSBLs, RFC 5782) list addresses and domains that sent spam. Sendwell checks your domain and the addresses of your mail servers and SPF senders against the major lists. A listing means some receivers refuse or file your mail until you are delisted.' },
      { p: 'A list that does not answer shows as unknown, not as clean. Each listing names the list and links to its removal page; fix the cause (a compromised account, an open relay, a bad mailing list) before asking for removal.' },
      { p: 'Lists break too: a list whose domain lapsed may start listing every address, and a list may start refusing queries. Sendwell asks every list about its own test entries every few minutes; a list that answers them wrongly is set aside and shown as unknown, so a broken list never reports your domain as listed.' },
    ],
  },
  {
    id: 'mail-transport',
    category: 'monitoring',
    title: 'Mail transport and brand: STARTTLS, MTA-STS, DANE, TLS reporting, reverse DNS and BIMI',
    blocks: [
      { p: 'MX STARTTLS: Sendwell connects to each of your MX hosts on port 25, as a sending server would, and checks that it offers STARTTLS, which TLS version it negotiates, and that its certificate is trusted, names the host and is in date. Without STARTTLS, mail to you travels in plain text.' },
      { p: 'MTA-STS (RFC 8461) tells sending servers to insist on TLS with a valid certificate when they deliver to you, so an attacker cannot strip the encryption. It is a TXT record at _mta-sts.yourdomain and a policy file at https://mta-sts.yourdomain/.well-known/mta-sts.txt; Sendwell fetches the policy as senders do and checks that it covers every MX host. Start in testing mode, then move to enforce.' },
      { p: 'DANE (RFC 7672) publishes, in DNSSEC-signed TLSA records at _25._tcp.yourmx, which certificate or key your MX hosts present; senders that support it refuse any other, so not even a rogue certificate authority can intercept your mail. Sendwell reads the TLSA records, validates them with DNSSEC in the MX host\'s own zone (senders ignore TLSA records in an unsigned zone, and do not deliver to a host whose records fail validation), and checks that the certificate each MX host actually presents matches one of them.' },
      { p: 'DNSSEC signs your zone so resolvers can prove an answer really came from it. Sendwell validates the chain of trust from the root through your registry to your zone (DS, DNSKEY and RRSIG records) and the signatures over your SOA, MX, SPF, DMARC and TLSA records, with the algorithms and expiry dates. An unsigned zone is noted; a zone whose signatures fail (bogus) is an error, because validating resolvers refuse its answers.' },
      { p: 'TLS reporting (RFC 8460) is a TXT record at _smtp._tls.yourdomain naming where senders report TLS failures, so you learn about a broken certificate before mail bounces.' },
      { p: 'Reverse DNS: receivers look up the name of the address that connects to them and check that the name points back to the same address. Sendwell checks this for your MX hosts and the addresses in your SPF record; ask whoever runs the address (your host or provider) to set its PTR record.' },
      { p: 'BIMI shows your brand logo next to your mail in inboxes that support it (Gmail, Apple Mail, Yahoo). It needs DMARC at quarantine or reject for all mail, a default._bimi TXT record pointing at your logo in SVG Tiny Portable/Secure (square, with a title, no scripts or external references, under 32 KB) and, for Gmail and Apple Mail, a Verified or Common Mark Certificate. Sendwell fetches the logo and the certificate as inboxes do and checks each rule.' },
      { p: 'A domain that takes no mail (a null MX, or no MX and an SPF record that authorises nobody) does not need these: they are shown as not applicable.' },
    ],
  },
  {
    id: 'ssl-and-dns',
    category: 'monitoring',
    title: 'SSL certificate and DNS performance',
    blocks: [
      { p: "The SSL check connects to your domain over TLS and reads its certificate: who issued it, whether it is trusted, whether it names your domain, and how many days remain. Expiry reminders are sent at " + SSL_EXPIRY_THRESHOLDS.join(', ') + ' days (standard and above).' },
      { p: 'The DNS performance check asks each of your name servers directly, measures how fast they answer, and checks that there are at least two of them, that they agree, and that your MX hosts resolve.' },
    ],
  },
  {
    id: 'alerts',
    category: 'monitoring',
    title: 'Alerts and where they go',
    blocks: [
      { p: 'Alerts are raised once when something changes and resolved when it clears; a check that could not tell this time neither raises nor resolves one.' },
      { table: { head: ['Alert', 'When'], rows: alertTypes.map((t) => [alertTypeLabels[t].label, alertTypeLabels[t].description]) } },
      { list: ['Alerts are recorded on every paid plan and emailed from Basic up (or once a day as a digest, in Settings → Notifications).', 'Slack, Microsoft Teams, Discord, PagerDuty and Zapier: Standard and Advanced. Custom signed webhooks and marketing platforms: Advanced.', 'The bell lists alerts on the Advanced plan.'] },
    ],
  },
  {
    id: 'reputation-score',
    category: 'scoring',
    title: 'How the reputation score is computed',
    blocks: [
      {
        p: `The reputation score (0 to 100) is the sum of three parts: email authentication (${REPUTATION_WEIGHTS.emailAuthentication} points), security and deliverability (${REPUTATION_WEIGHTS.securityDeliverability}) and configuration health (${REPUTATION_WEIGHTS.configurationHealth}). Each part is split between the things that make it up:`,
      },
      {
        table: {
          head: ['Part', 'Made of', 'Points'],
          rows: [
            ['Email authentication', 'SPF', String(w.spf)],
            ['', 'DKIM', String(w.dkim)],
            ['', `DMARC (scaled by the policy: reject ${percent(DMARC_POLICY_FACTOR.reject!)}, quarantine ${percent(DMARC_POLICY_FACTOR.quarantine!)}, none ${percent(DMARC_POLICY_FACTOR.none!)})`, String(w.dmarc)],
            ['Security and deliverability', `Blacklists (each listing costs ${BLACKLIST_POINTS_PER_LISTING} points)`, String(w.blacklist)],
            ['', 'SSL certificate', String(w.ssl)],
            ['', 'Spoofing protection (SPF ending in -all, DMARC enforcing)', String(w.spoofingProtection)],
            ['', 'MX STARTTLS (every MX host offers TLS with a valid certificate)', String(w.smtp)],
            ['', 'MTA-STS (a policy that makes senders insist on TLS)', String(w.mtaSts)],
            ['', 'DANE (TLSA records pinning the MX hosts\' certificates)', String(w.dane)],
            ['', 'TLS reporting (where senders report TLS failures)', String(w.tlsRpt)],
            ['', 'BIMI (your brand logo, with its mark certificate)', String(w.bimi)],
            ['Configuration health', 'DNS performance', String(w.dnsPerformance)],
            ['', 'Mail routing (MX records that resolve)', String(w.mailRouting)],
            ['', 'Name servers (at least two)', String(w.nameServers)],
            ['', 'Reverse DNS (each sending address names a host that resolves back to it)', String(w.reverseDns)],
            ['', 'DNSSEC (the zone signed, the chain of trust from the root validated)', String(w.dnssec)],
          ],
        },
      },
      {
        p: 'A domain that takes no mail (a null MX, or no MX and an SPF record that authorises nobody) is judged as such: the mail checks do not apply and earn their points, mail routing earns its points, and SPF should read "v=spf1 -all" and DMARC p=reject so nobody can send in its name.',
      },
      { p: `A check earns its full points when it passes, ${factor('warning')} on a warning, ${factor('unknown')} when it could not tell (a timeout), ${factor('error')} on an error and nothing when the record is missing.` },
      { table: { head: ['Score', 'Label'], rows: [['80 and above', 'Excellent'], ['60 to 79', 'Good'], ['40 to 59', 'Fair'], ['below 40', 'Poor']] } },
      { p: `The trend compares a score with the previous one: a rise of ${TREND_THRESHOLD} points or more is improving, a fall of ${TREND_THRESHOLD} or more is declining. Scores are recalculated with every scan and once a day at 2:00 AM UTC. The reputation score is shown on the Standard and Advanced plans.` },
    ],
  },
  {
    id: 'fix-first',
    category: 'scoring',
    title: 'What to fix first',
    blocks: [
      { p: 'A fix is worth what its part of the score is missing: the part weight minus what the check earns now. Reports list actions in that order, failures first, with the expected gain of each; a domain that fails DKIM (13 points) gains more from publishing a key than from speeding up a name server that is merely slow.' },
      { p: 'Each failing check links to a fixing guide with the record as published, a suggested record and the steps for your DNS provider.' },
    ],
  },
  {
    id: 'reports',
    category: 'reports',
    title: 'Reports',
    blocks: [
      { p: `A full report covers one domain at one point in time: the score and its breakdown, each check with the record as published and every finding with its RFC clause and fix, the blacklist table, trends over the last ${REPORT_TREND_WINDOWS.join(' and ')} days with the DNS changes in that time, and an action plan. A summary report is one page: status, score and the top three actions.` },
      { p: 'Each report downloads as PDF, HTML (works offline and prints on A4), JSON (a versioned schema, for your own tools) and plain text. Reports are built from stored scan results: generate one after a scan to include it.' },
      { table: { head: ['Plan', 'Stored reports', 'Automated reports'], rows: PAID.map((p) => [planRules[p].label, String(planRules[p].reportQuota), planRules[p].automatedReports ?? '-']) } },
      { p: 'Automated reports are made for every scanned domain once per period and emailed to you with the PDF attached; turn the emails off in Settings → Notifications. Delete old reports to make room under your plan\'s limit.' },
    ],
  },
];

const blockText = (b: Block): string => ('p' in b ? b.p : 'list' in b ? b.list.join(' ') : [...b.table.head, ...b.table.rows.flat()].join(' '));

/** Guides of a category whose title or text contains every word of the query (case-insensitive). */
export function filterGuides(all: readonly Guide[], category: GuideCategory | 'all', query: string): Guide[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return all.filter((g) => {
    if (category !== 'all' && g.category !== category) return false;
    if (words.length === 0) return true;
    const text = `${g.title} ${g.blocks.map(blockText).join(' ')}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
