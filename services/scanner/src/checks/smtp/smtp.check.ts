import { isIP } from 'node:net';
import type { SmtpDetails } from '@sendwell/contracts';
import { isOutsideDomain } from '../../dns/shared-cache.js';
import type { Resolver } from '../../dns/types.js';
import { lookupAddresses, refusedName, vetAddresses } from '../outbound-targets.js';
import type { Check, CheckResult, ScanConfig } from '../types.js';
import { checkGreetingName } from './banner-name.js';
import { hostFindings } from './findings.js';
import { emptyHost, type SmtpHostResult } from './host-result.js';
import { planMxHosts } from './mx-hosts.js';
import { SLOW_BANNER_MS, type ProbeSettings } from './probe.js';
import { probeMxHost } from './probe-cache.js';
import { starttlsContext } from './tls-context.js';
import { noHostVerdict, smtpVerdict } from './verdict.js';

export { SLOW_BANNER_MS };

export interface SmtpCheckOptions {
  /** Threshold of SMTP_BANNER_SLOW; tests lower it. */
  slowBannerMs?: number;
}

/**
 * SMTP transport check (RFC 5321, RFC 3207, RFC 8996): each MX host, lowest preference first, is
 * asked for its greeting, EHLO and STARTTLS on its first vetted address; the TLS session's version
 * and certificate (chain, name, dates) are judged as a sender enforcing MTA-STS would judge them.
 */
export function createSmtpCheck(options: SmtpCheckOptions = {}): Check<'smtp'> {
  const slowBannerMs = options.slowBannerMs ?? SLOW_BANNER_MS;
  return async ({ domain, resolver, config }): Promise<CheckResult<SmtpDetails>> => {
    const plan = await planMxHosts(resolver, domain);
    if (plan.hosts.length === 0) return noHostVerdict(domain, plan);
    const settings: ProbeSettings = {
      port: config.smtpPort,
      timeoutMs: config.timeoutMs,
      // Long enough to see a greeting slower than the threshold, which a per-step timeout would hide.
      greetingTimeoutMs: Math.max(config.timeoutMs, Math.round(slowBannerMs * 1.5)),
      slowBannerMs,
      heloName: config.heloName,
      context: starttlsContext(config.tlsExtraCa),
      now: Date.now(),
    };
    const hosts = await Promise.all(plan.hosts.map((mx) => examineHost(resolver, domain, mx.exchange, mx.priority, config, settings)));
    const context = {
      someAnswered: hosts.some((host) => host.greeted),
      someAddressed: hosts.some((host) => !host.noAddress),
      slowBannerMs,
      now: settings.now,
    };
    await Promise.all(
      hosts.map(async (host) => {
        host.findings.push(...hostFindings(host, context));
        const nameFinding = await checkGreetingName(resolver, domain, host);
        if (nameFinding) host.findings.push(nameFinding);
      }),
    );
    return smtpVerdict(domain, plan, hosts);
  };
}

export const smtpCheck: Check<'smtp'> = createSmtpCheck();

/** One MX host: the outbound guard on its name and addresses, then the probe of the first vetted address (IPv4 first). */
async function examineHost(resolver: Resolver, domain: string, exchange: string, preference: number, config: ScanConfig, settings: ProbeSettings): Promise<SmtpHostResult> {
  const result = emptyHost(exchange, preference, config.smtpPort);
  const badName = refusedName(exchange);
  if (badName) {
    result.refused = [badName];
    return result;
  }
  // Another organisation's mail host (a provider's) has the same addresses for every scan.
  const { addresses, error } = await lookupAddresses(resolver, exchange, { shared: isOutsideDomain(exchange, domain) });
  if (addresses.length === 0) {
    if (error !== null) result.dnsError = error;
    else result.noAddress = true;
    return result;
  }
  const { allowed, refused } = vetAddresses(addresses, config.outbound);
  result.refused = refused;
  // The vetted IP itself is dialled (the name is only the SNI): DNS cannot answer differently now.
  const address = allowed.find((ip) => isIP(ip) === 4) ?? allowed[0];
  if (address !== undefined) await probeMxHost(result, address, settings, domain, config.mxProbes);
  return result;
}
