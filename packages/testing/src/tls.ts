// @peculiar/x509 resolves its algorithms through tsyringe, which needs a Reflect polyfill loaded first.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import * as x509 from '@peculiar/x509';

/**
 * Certificates generated at test time with @peculiar/x509 on Node's WebCrypto (native key
 * generation, typed API, custom issuer and validity dates), and real TLS servers on loopback.
 */

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const DAY_MS = 24 * 60 * 60 * 1000;

export interface TestCertificate {
  /** PEM certificate. */
  cert: string;
  /** PEM private key (PKCS#8). */
  key: string;
}

export interface TestCa extends TestCertificate {
  /** The CA's signing key, for issueCert. */
  readonly keys: webcrypto.CryptoKeyPair;
  readonly certificate: x509.X509Certificate;
}

export interface CertOptions {
  /** DNS names (or IP addresses) put in subjectAltName; the first is also the subject CN. */
  hostnames: string[];
  /** Default: one day ago. */
  notBefore?: Date;
  /** Default: 90 days from now. */
  notAfter?: Date;
  /** RSA modulus length; default 2048. */
  keyBits?: number;
}

export interface CaOptions {
  commonName?: string;
  notBefore?: Date;
  notAfter?: Date;
  keyBits?: number;
}

/** Validity windows for the usual variants. */
export const validity = {
  /** Valid now, for `days` more days. */
  expiringInDays(days: number, now = new Date()): { notBefore: Date; notAfter: Date } {
    return { notBefore: new Date(now.getTime() - 30 * DAY_MS), notAfter: new Date(now.getTime() + days * DAY_MS) };
  },
  /** Expired `days` days ago. */
  expiredDaysAgo(days = 1, now = new Date()): { notBefore: Date; notAfter: Date } {
    return { notBefore: new Date(now.getTime() - (days + 90) * DAY_MS), notAfter: new Date(now.getTime() - days * DAY_MS) };
  },
  /** Valid from `days` days from now. */
  notYetValidForDays(days = 1, now = new Date()): { notBefore: Date; notAfter: Date } {
    return { notBefore: new Date(now.getTime() + days * DAY_MS), notAfter: new Date(now.getTime() + (days + 90) * DAY_MS) };
  },
};

function rsaParams(keyBits: number): webcrypto.RsaHashedKeyGenParams {
  return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: keyBits };
}

async function generateKeys(keyBits: number): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(rsaParams(keyBits), true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

async function privateKeyPem(keys: webcrypto.CryptoKeyPair): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
}

function serialNumber(): string {
  // Positive, 16 bytes (CA/B Forum asks for at least 64 bits of randomness).
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f | 0x01;
  return Buffer.from(bytes).toString('hex');
}

function escapeDn(value: string): string {
  return value.replace(/([,+"\\<>;=])/g, '\\$1');
}

function subjectAltNames(hostnames: string[]): x509.SubjectAlternativeNameExtension {
  return new x509.SubjectAlternativeNameExtension(
    hostnames.map((name) => ({ type: net.isIP(name) ? ('ip' as const) : ('dns' as const), value: name })),
  );
}

function leafExtensions(hostnames: string[]): x509.Extension[] {
  return [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    subjectAltNames(hostnames),
  ];
}

/** A root CA for tests; trust it with `tls.connect({ ca: [ca.cert] })`. */
export async function createTestCa(options: CaOptions = {}): Promise<TestCa> {
  const keys = await generateKeys(options.keyBits ?? 2048);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: `CN=${escapeDn(options.commonName ?? 'Sendwell Test CA')}`,
    notBefore: options.notBefore ?? new Date(now - 2 * DAY_MS),
    notAfter: options.notAfter ?? new Date(now + 3650 * DAY_MS),
    signingAlgorithm: rsaParams(2048),
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: certificate.toString('pem'), key: await privateKeyPem(keys), keys, certificate };
}

/** A server certificate signed by `ca` for `hostnames` (as SAN entries). */
export async function issueCert(ca: TestCa, options: CertOptions): Promise<TestCertificate> {
  const keys = await generateKeys(options.keyBits ?? 2048);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: `CN=${escapeDn(options.hostnames[0] ?? 'localhost')}`,
    issuer: ca.certificate.subject,
    notBefore: options.notBefore ?? new Date(now - DAY_MS),
    notAfter: options.notAfter ?? new Date(now + 90 * DAY_MS),
    signingAlgorithm: rsaParams(2048),
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    extensions: [
      ...leafExtensions(options.hostnames),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
    ],
  });
  return { cert: certificate.toString('pem'), key: await privateKeyPem(keys) };
}

/** A self-signed server certificate (no CA): clients fail with DEPTH_ZERO_SELF_SIGNED_CERT. */
export async function selfSignedCert(options: CertOptions): Promise<TestCertificate> {
  const keys = await generateKeys(options.keyBits ?? 2048);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: `CN=${escapeDn(options.hostnames[0] ?? 'localhost')}`,
    notBefore: options.notBefore ?? new Date(now - DAY_MS),
    notAfter: options.notAfter ?? new Date(now + 90 * DAY_MS),
    signingAlgorithm: rsaParams(2048),
    keys,
    extensions: leafExtensions(options.hostnames),
  });
  return { cert: certificate.toString('pem'), key: await privateKeyPem(keys) };
}

export interface TlsServerOptions extends TestCertificate {
  /** Chain certificates sent after the leaf (PEM), e.g. an intermediate. */
  ca?: string | string[];
  /** Different certificates per SNI name (exact, lower-case); others get `cert`/`key`. */
  sni?: Record<string, TestCertificate>;
  /** Lowest protocol offered; default Node's (TLSv1.2). */
  minVersion?: tls.SecureVersion;
  maxVersion?: tls.SecureVersion;
}

export interface TestTlsServer {
  host: '127.0.0.1';
  port: number;
  /** Server names received in ClientHello SNI, in order (handshakes without SNI add nothing). */
  readonly serverNames: string[];
  /** Serves another certificate from now on (names without an SNI entry): a renewal, an expiry, a bad chain. */
  setCertificate(pair: TestCertificate): void;
  close(): Promise<void>;
}

/** A real TLS server on 127.0.0.1 (random port) that completes handshakes, then closes the connection. */
export async function startTlsServer(options: TlsServerOptions): Promise<TestTlsServer> {
  const serverNames: string[] = [];
  const contexts = new Map<string, tls.SecureContext>();
  for (const [name, pair] of Object.entries(options.sni ?? {})) {
    contexts.set(name.toLowerCase(), tls.createSecureContext({ cert: pair.cert, key: pair.key }));
  }
  const chain = options.ca === undefined ? [] : Array.isArray(options.ca) ? options.ca : [options.ca];
  const sockets = new Set<net.Socket>();
  const server = tls.createServer(
    {
      cert: [options.cert, ...chain].join('\n'),
      key: options.key,
      minVersion: options.minVersion,
      maxVersion: options.maxVersion,
      SNICallback(servername, callback) {
        serverNames.push(servername);
        callback(null, contexts.get(servername.toLowerCase()));
      },
    },
    (socket) => {
      socket.on('error', () => undefined);
      socket.end();
    },
  );
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    serverNames,
    setCertificate(pair) {
      server.setSecureContext({ cert: pair.cert, key: pair.key, minVersion: options.minVersion, maxVersion: options.maxVersion });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
