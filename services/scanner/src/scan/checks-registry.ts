import { bimiCheck } from '../checks/bimi/bimi.check.js';
import { blacklistCheck } from '../checks/blacklist/blacklist.check.js';
import { daneCheck } from '../checks/dane/dane.check.js';
import { dnssecCheck } from '../checks/dnssec/dnssec.check.js';
import { dkimCheck } from '../checks/dkim/dkim.check.js';
import { dmarcCheck } from '../checks/dmarc/dmarc.check.js';
import { dnsPerformanceCheck } from '../checks/dns-performance/dns-performance.check.js';
import { spfCheck } from '../checks/spf/spf.check.js';
import { sslCertificateCheck } from '../checks/ssl-certificate/ssl-certificate.check.js';
import { mtaStsCheck } from '../checks/mta-sts/mta-sts.check.js';
import { reverseDnsCheck } from '../checks/reverse-dns/reverse-dns.check.js';
import { smtpCheck } from '../checks/smtp/smtp.check.js';
import { tlsRptCheck } from '../checks/tls-rpt/tls-rpt.check.js';
import type { CheckRegistry } from '../checks/types.js';

/** Every check type of the contracts, each with its module; the mapped type makes a missing one, or one of the wrong details, a compile error. */
export const checksRegistry: CheckRegistry = {
  spf: spfCheck,
  dkim: dkimCheck,
  dmarc: dmarcCheck,
  blacklist: blacklistCheck,
  ssl_certificate: sslCertificateCheck,
  dns_performance: dnsPerformanceCheck,
  mta_sts: mtaStsCheck,
  tls_rpt: tlsRptCheck,
  smtp: smtpCheck,
  reverse_dns: reverseDnsCheck,
  dane: daneCheck,
  bimi: bimiCheck,
  dnssec: dnssecCheck,
};
