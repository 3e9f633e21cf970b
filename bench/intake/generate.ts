/**
 * Aggregate reports as receivers send them (RFC 7489 Appendix C), built with the intake's own test
 * fixture builders: N records over varied sources (the big mailbox providers' and ESPs' ranges, a
 * long tail of single addresses, a little IPv6), header_from the domain, DKIM and SPF results as
 * they come (mostly aligned passes, some forwarding failures), counts heavy-tailed. Seeded, so every
 * run measures the same bytes.
 */
import { gzipSync } from 'node:zlib';
import { seededRandom } from '@sendwell/testing';
import { aggregateXml, type RecordSpec } from '../../services/intake/test/fixtures/reports/aggregate.js';
import { reportMessage } from '../../services/intake/test/fixtures/reports/mail.js';


const REPORTERS = ['google.com', 'Outlook.com', 'Yahoo', 'Mail.Ru', 'Comcast', 'web.de', 'Fastmail Pty Ltd', 'seznam.cz'];
/** Sending ranges of services a domain commonly uses (documentation-like but realistic prefixes). */
const SERVICE_PREFIXES = ['209.85.', '40.92.', '40.107.', '167.89.', '198.21.', '54.240.', '23.251.', '185.12.'];
const ESP_DOMAINS = ['sendgrid.net', 'amazonses.com', 'mailgun.org', 'mcsv.net'];

export interface GeneratedReport {
  /** Index into the domains the caller passed. */
  domain: number;
  records: number;
  xml: Buffer;
  gz: Buffer;
}

function sourceIp(r: () => number): string {
  const x = r();
  const octet = () => Math.floor(r() * 254) + 1;
  if (x < 0.55) return `${SERVICE_PREFIXES[Math.floor(r() * SERVICE_PREFIXES.length)]}${octet()}.${octet()}`;
  if (x < 0.95) return `${octet()}.${octet()}.${octet()}.${octet()}`;
  return `2001:db8:${Math.floor(r() * 0xffff).toString(16)}::${Math.floor(r() * 0xffff).toString(16)}`;
}

function record(r: () => number, domain: string): RecordSpec {
  const esp = r() < 0.3 ? ESP_DOMAINS[Math.floor(r() * ESP_DOMAINS.length)]! : undefined;
  const forwarded = r() < 0.08;
  const dkimPass = r() < 0.88 && !forwarded;
  const spfPass = r() < 0.82 && !forwarded;
  const failing = !dkimPass && !spfPass;
  const count = r() < 0.7 ? 1 + Math.floor(r() * 3) : Math.floor(Math.exp(r() * 9));
  return {
    ip: sourceIp(r),
    count: Math.max(1, count),
    headerFrom: domain,
    envelopeFrom: esp ? `bounces.${esp}` : domain,
    disposition: failing && r() < 0.5 ? 'quarantine' : 'none',
    dkim: dkimPass ? 'pass' : 'fail',
    spf: spfPass ? 'pass' : 'fail',
    ...(forwarded ? { reason: 'forwarded' } : {}),
    dkimResults: [
      { domain, selector: `s${Math.floor(r() * 3) + 1}`, result: dkimPass ? 'pass' : r() < 0.5 ? 'fail' : 'none' },
      ...(esp ? [{ domain: esp, selector: 'smtpapi', result: 'pass' }] : []),
    ],
    spfResults: [{ domain: esp ? `bounces.${esp}` : domain, result: spfPass ? 'pass' : r() < 0.5 ? 'softfail' : 'fail' }],
  };
}

const PLACEHOLDER = 'placeholder.bench.invalid';
const POOL_RECORDS = 20_000;

/**
 * Reports drawn from one pool of records (made once, as the fixture builder writes them): each report
 * a run of the pool from a random place, its domain written in. Building every record afresh costs
 * more than reading it, and a burst of 100 MB holds millions.
 */
export class ReportGenerator {
  private readonly r: () => number;
  private pool: string[] | undefined;

  constructor(seed: number) {
    this.r = seededRandom(seed);
  }

  private records(): string[] {
    if (!this.pool) {
      const lines = aggregateXml({ domain: PLACEHOLDER, begin: new Date(0), end: new Date(0), records: Array.from({ length: POOL_RECORDS }, () => record(this.r, PLACEHOLDER)) }).split('\n');
      this.pool = lines.filter((line) => line.startsWith('<record>'));
    }
    return this.pool;
  }

  report(opts: { domain: string; domainIndex: number; records: number; reportId: string; daysAgo: number }): GeneratedReport {
    const pool = this.records();
    const today = new Date();
    const begin = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - opts.daysAgo));
    const end = new Date(begin.getTime() + 86_399_000);
    const [declaration, version, metadata, range, policy] = aggregateXml({ domain: opts.domain, orgName: REPORTERS[Math.floor(this.r() * REPORTERS.length)]!, reportId: opts.reportId, begin, end, records: [] }).split('\n');
    const from = Math.floor(this.r() * (pool.length - opts.records));
    const records = pool.slice(from, from + opts.records).join('\n').replaceAll(PLACEHOLDER, opts.domain);
    const xml = Buffer.from([declaration, version, metadata, range, policy, records, '</feedback>', ''].join('\n'));
    return { domain: opts.domainIndex, records: opts.records, xml, gz: gzipSync(xml) };
  }

  /** Records between min and max, log-uniform: many small reports, a few large ones, as arrive in a day. */
  recordCount(min: number, max: number): number {
    return Math.round(Math.exp(Math.log(min) + this.r() * (Math.log(max) - Math.log(min))));
  }
}

/** The report as a receiver mails it: a text part and the .xml.gz attachment, base64, CRLF. */
export function reportMail(report: GeneratedReport, domain: string): Buffer {
  return reportMessage([{ type: 'application/gzip', name: `reporter!${domain}!${Date.now()}.xml.gz`, bytes: report.gz }]);
}
