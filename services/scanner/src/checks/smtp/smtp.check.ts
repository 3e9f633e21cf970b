import type { SmtpDetails } from '@sendwell/contracts';
import { starttlsContext } from '@sendwell/smtp-client';
import type { Resolver } from '../../dns/types.js';
import { dialMxHost } from '../shared/mx-probe/dial.js';
import { emptyHost, type SmtpHostResult } from '../shared/mx-probe/host-result.js';
import { planMxHosts } from '../shared/mx-probe/mx-hosts.js';
import { SLOW_BANNER_MS, type ProbeSettings } from '../shared/mx-probe/probe.js';
import type { Check, CheckResult, ScanConfig } from '../types.js';
import { checkGreetingName } from './banner-name.js';
import { hostFindings } from './findings.js';
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
      outbound: config.outbound,
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

/** One MX host, reached as checks/shared/mx-probe/dial.ts does. */
async function examineHost(resolver: Resolver, domain: string, exchange: string, preference: number, config: ScanConfig, settings: ProbeSettings): Promise<SmtpHostResult> {
  const result = emptyHost(exchange, preference, config.smtpPort);
  await dialMxHost(result, resolver, domain, config, settings);
  return result;
}
