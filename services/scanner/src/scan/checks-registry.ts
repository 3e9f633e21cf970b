import type { CheckType } from '@sendwell/contracts';
import { blacklistCheck } from '../checks/blacklist.js';
import { dkimCheck } from '../checks/dkim.js';
import { dmarcCheck } from '../checks/dmarc.js';
import { dnsPerformanceCheck } from '../checks/dns-performance.js';
import { spfCheck } from '../checks/spf.js';
import { sslCertificateCheck } from '../checks/ssl-certificate.js';
import type { Check } from '../checks/types.js';

/** Every check type of the contracts, each with its module; the `Record` type makes a missing one a compile error. */
export const checksRegistry: Record<CheckType, Check> = {
  spf: spfCheck,
  dkim: dkimCheck,
  dmarc: dmarcCheck,
  blacklist: blacklistCheck,
  ssl_certificate: sslCertificateCheck,
  dns_performance: dnsPerformanceCheck,
};
