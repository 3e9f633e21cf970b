/**
 * The certificates of the benchmark's world, made once by the parent with the benchmark's test CA
 * (which the worker trusts as `tlsExtraCa`): the web hosts' (each domain with its www, MTA-STS and
 * BIMI hosts, ten domains a certificate), the MX hosts' (a provider's two hosts share one, ten
 * self-hosted domains share one, and the hoster's shared certificate for another name), and the
 * Verified Mark Certificates of the BIMI domains, each embedding the domain's logo. From the MX
 * certificates come the DANE records: TLSA 3 1 1, the SHA-256 of the key (RFC 7671 §5.1).
 */
import { createHash, X509Certificate } from 'node:crypto';
import { createTestCa, issueCert, issueMarkCertificate, type HttpsFixtureResponse, type TestCa, type TestCertificate } from '@sendwell/testing';
import { BIMI_LOGO_PATH, BIMI_VMC_PATH, bimiLogo, HOSTER, MTA_STS_POLICY_PATH, mtaStsPolicy, webHostNames, type BenchDomain, type WorldPlan } from './fixture-zones.js';

/** Domains per web certificate (each with its www, MTA-STS and BIMI names): few key generations, certificates of a sane size. */
const DOMAINS_PER_CERT = 10;
/** Key generations at once: WebCrypto runs them on the libuv thread pool. */
const PARALLEL = 4;

export interface CertificateGroup extends TestCertificate {
  names: string[];
}

/** What the HTTPS fixture serves at one host name: the web certificate group covering it, and its paths. */
export interface HttpsHostPlan {
  group: number;
  paths: Record<string, HttpsFixtureResponse>;
}

/** The SMTP fixture's table: what answers at each loopback address. */
export interface SmtpHostEntry {
  address: string;
  /** The name it greets with (its own). */
  name: string;
  /** Key into `certificates`; null: no STARTTLS. */
  certificate: string | null;
}

export interface MxCertificates {
  /** By certificate group (MxHostPlan.certificate). */
  mx: Record<string, TestCertificate>;
  smtpHosts: SmtpHostEntry[];
  /** TLSA association data (3 1 1) by MX host name, for the DNS child. */
  tlsa: Record<string, string>;
}

export interface WebCertificates {
  web: CertificateGroup[];
  https: Record<string, HttpsHostPlan>;
  /** Verified Mark Certificates issued. */
  marks: number;
}

async function inBatches<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await run(items[index] as T);
      }
    }),
  );
  return results;
}

const spkiSha256 = (pem: string): string => createHash('sha256').update(new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' })).digest('hex');

export function createBenchCa(): Promise<TestCa> {
  return createTestCa({ commonName: 'Sendwell Bench CA' });
}

/** The MX hosts' certificates first: the DNS child needs their digests before it can sign the world. */
export async function issueMxCertificates(ca: TestCa, plan: WorldPlan): Promise<MxCertificates> {
  // The MX certificates: by group, each covering the names of the hosts that present it. Only hosts
  // some domain names as its MX: nothing connects to the others (a small world, as smoke mode's,
  // uses a few of the 50 providers; the full world uses them all).
  const used = new Set(plan.domains.flatMap((domain) => domain.mx.map((host) => host.name)));
  const mxNames = new Map<string, string[]>();
  for (const host of plan.mxHosts) {
    if (host.certificate === null || host.certificate === 'hoster' || !used.has(host.name)) continue;
    mxNames.set(host.certificate, [...(mxNames.get(host.certificate) ?? []), host.name]);
  }
  mxNames.set('hoster', [`mail.${HOSTER}`]);
  const mxGroups = [...mxNames.entries()];
  const mxCerts = await inBatches(mxGroups, ([, hostnames]) => issueCert(ca, { hostnames }));
  const mx = Object.fromEntries(mxGroups.map(([group], index) => [group, mxCerts[index] as TestCertificate]));

  const tlsa: Record<string, string> = {};
  for (const host of plan.mxHosts) {
    const certificate = host.certificate === null ? undefined : mx[host.certificate];
    if (host.dane && certificate) tlsa[host.name] = spkiSha256(certificate.cert);
  }
  const smtpHosts = plan.mxHosts.map((host) => ({ address: host.address, name: host.name, certificate: host.certificate }));
  return { mx, smtpHosts, tlsa };
}

/** The web hosts' certificates and what the HTTPS fixture serves: MTA-STS policies, BIMI logos and Mark Certificates. */
export async function issueWebCertificates(ca: TestCa, plan: WorldPlan): Promise<WebCertificates> {
  // The web certificates, ten domains each, and the Mark Certificates of the BIMI domains with one.
  const slices: BenchDomain[][] = [];
  for (let i = 0; i < plan.domains.length; i += DOMAINS_PER_CERT) slices.push(plan.domains.slice(i, i + DOMAINS_PER_CERT));
  const bimiDomains = plan.domains.filter((domain) => domain.bimi === 'vmc');
  const [webCerts, vmcs] = await Promise.all([
    inBatches(slices, (slice) => issueCert(ca, { hostnames: slice.flatMap(webHostNames) })),
    inBatches(bimiDomains, (domain) => issueMarkCertificate(ca, { domains: [domain.name], svg: bimiLogo(domain), organization: `Shop ${domain.index}` })),
  ]);
  const web = slices.map((slice, index) => ({ ...(webCerts[index] as TestCertificate), names: slice.flatMap(webHostNames) }));
  const vmcByDomain = new Map(bimiDomains.map((domain, index) => [domain.name, vmcs[index] as TestCertificate]));

  const https: Record<string, HttpsHostPlan> = {};
  for (const [index, slice] of slices.entries()) {
    for (const domain of slice) {
      const policy = mtaStsPolicy(domain);
      if (policy !== null) https[`mta-sts.${domain.name}`] = { group: index, paths: { [MTA_STS_POLICY_PATH]: { contentType: 'text/plain', body: policy } } };
      if (domain.bimi !== null) {
        const paths: Record<string, HttpsFixtureResponse> = { [BIMI_LOGO_PATH]: { contentType: 'image/svg+xml', body: bimiLogo(domain) } };
        const vmc = vmcByDomain.get(domain.name);
        // The PEM file as a Mark Verifying Authority issues it: the mark certificate, then its issuer.
        if (vmc) paths[BIMI_VMC_PATH] = { contentType: 'application/x-pem-file', body: `${vmc.cert}${ca.cert}` };
        https[`bimi.${domain.name}`] = { group: index, paths };
      }
    }
  }
  return { web, https, marks: vmcs.length };
}
