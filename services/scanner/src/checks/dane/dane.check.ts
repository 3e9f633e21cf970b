import type { DaneDetails } from '@sendwell/contracts';
import { scanValidator } from '../shared/dnssec/scan-validator.js';
import { planMxHosts } from '../shared/mx-probe/mx-hosts.js';
import type { ProbeSettings } from '../shared/mx-probe/probe.js';
import type { Check, CheckResult } from '../types.js';
import { judgeHost } from './findings.js';
import { examineHost } from './host.js';
import { daneContext } from './tls-context.js';
import { daneVerdict, noHostVerdict } from './verdict.js';

/** The wait for the 220 greeting: long, as the SMTP check's, so a slow (tarpitting) server is still reached. */
const GREETING_TIMEOUT_MS = 15_000;

/**
 * DANE for SMTP (RFC 7672), with TLSA records as RFC 6698 defines them and RFC 7671 advises: each
 * MX host (as the SMTP check lists them: lowest preference first, at most 5, null MX left out) is
 * asked for TLSA records at `_25._tcp.{host}`; a host that has some is probed over STARTTLS (the
 * SMTP check's probe, trusting no CA) and its presented chain matched against them: DANE-EE(3)
 * against the leaf, name and dates ignored (§3.1.1); DANE-TA(2) against a CA certificate the
 * server sends, with the leaf's name and dates checked (§3.1.2, §3.2). Senders use TLSA records only
 * when they validate (§2.2): each host's TLSA RRset is validated in its own zone by the scan's DNSSEC
 * validator, shared with the DNSSEC check, which asks for the same RRsets.
 */
export const daneCheck: Check<'dane'> = async (ctx): Promise<CheckResult<DaneDetails>> => {
  const { domain, resolver, config } = ctx;
  const plan = await planMxHosts(resolver, domain);
  if (plan.hosts.length === 0) return noHostVerdict(domain, plan);
  const settings: ProbeSettings = {
    port: config.smtpPort,
    timeoutMs: config.timeoutMs,
    greetingTimeoutMs: Math.max(config.timeoutMs, GREETING_TIMEOUT_MS),
    heloName: config.heloName,
    context: daneContext(),
    outbound: config.outbound,
    chain: true,
    now: Date.now(),
  };
  const validator = scanValidator(ctx);
  const hosts = await Promise.all(plan.hosts.map((mx) => examineHost(resolver, validator, domain, mx.exchange, mx.priority, config, settings)));
  return daneVerdict(
    domain,
    plan,
    hosts.map((host) => judgeHost(host, settings.now)),
  );
};
