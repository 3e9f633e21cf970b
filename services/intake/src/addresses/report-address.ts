import { reportAddressOf, reportTokenSchema, tlsRptAddressOf, type DnsRecordToPublish } from '@sendwell/contracts';

/** What a report address's local part says: the domain's token and the kind of report it was published for. */
export interface ReportRecipient {
  token: string;
  /** `<token>@…` was published in the DMARC record (rua, ruf); `tls-<token>@…` in the TLS-RPT record. */
  kind: 'dmarc' | 'tls';
}

const TLS_PREFIX = 'tls-';

/**
 * The recipient of an address the intake issued, or null for any other address (answered 550 at RCPT).
 * Case-insensitive, as receivers' MTAs do not all keep the case of a local part; `+tags` are not ours.
 */
export function parseReportRecipient(address: string, intakeDomain: string): ReportRecipient | null {
  const at = address.lastIndexOf('@');
  if (at <= 0 || address.slice(at + 1).toLowerCase() !== intakeDomain) return null;
  const local = address.slice(0, at).toLowerCase();
  const kind = local.startsWith(TLS_PREFIX) ? 'tls' : 'dmarc';
  const token = kind === 'tls' ? local.slice(TLS_PREFIX.length) : local;
  return reportTokenSchema.safeParse(token).success ? { token, kind } : null;
}

export interface IssuedAddresses {
  dmarcAddress: string;
  tlsRptAddress: string;
  tlsRptUrl: string;
}

export function issuedAddresses(token: string, intakeDomain: string, publicUrl: string): IssuedAddresses {
  return {
    dmarcAddress: reportAddressOf(token, intakeDomain),
    tlsRptAddress: tlsRptAddressOf(token, intakeDomain),
    tlsRptUrl: `${new URL('/api/intake/tls-rpt/', publicUrl).href}${token}`,
  };
}

/**
 * The `_dmarc` record to publish: the domain's present record (as the last scan read it) with our
 * addresses added to `rua` (and `ruf` when failure reports are on), other tags and other destinations
 * kept; `v=DMARC1; p=none; rua=…` when it has none.
 */
export function dmarcRecordWithAddresses(present: string | null, address: string, failureReports: boolean): string {
  const uri = `mailto:${address}`;
  const tags = (present ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=');
      return eq === -1 ? { name: part.toLowerCase(), value: '' } : { name: part.slice(0, eq).trim().toLowerCase(), value: part.slice(eq + 1).trim() };
    });
  if (tags[0]?.name !== 'v' || tags[0].value.toUpperCase() !== 'DMARC1') return `v=DMARC1; p=none; rua=${uri}${failureReports ? `; ruf=${uri}; fo=1` : ''}`;
  const withUri = (name: 'rua' | 'ruf') => {
    const tag = tags.find((t) => t.name === name);
    const uris = tag ? tag.value.split(',').map((u) => u.trim()).filter(Boolean) : [];
    if (!uris.some((u) => u.toLowerCase() === uri.toLowerCase())) uris.push(uri);
    if (tag) tag.value = uris.join(',');
    else tags.push({ name, value: uris.join(',') });
  };
  withUri('rua');
  if (failureReports) withUri('ruf');
  return tags.map((t) => (t.value === '' ? t.name : `${t.name}=${t.value}`)).join('; ');
}

/** The two records a domain publishes to have its reports sent to the intake. */
export function recordsToPublish(domain: string, addresses: IssuedAddresses, presentDmarc: string | null, failureReports: boolean): DnsRecordToPublish[] {
  return [
    {
      type: 'TXT',
      host: `_dmarc.${domain}`,
      value: dmarcRecordWithAddresses(presentDmarc, addresses.dmarcAddress, failureReports),
      purpose: 'Receivers send their DMARC aggregate reports (and failure reports, when on) to Sendwell.',
    },
    {
      type: 'TXT',
      host: `_smtp._tls.${domain}`,
      value: `v=TLSRPTv1; rua=mailto:${addresses.tlsRptAddress},${addresses.tlsRptUrl}`,
      purpose: 'Senders report TLS failures delivering to your mail servers (RFC 8460).',
    },
  ];
}
