import tls from 'node:tls';
import {
  createTestCa,
  issueCert,
  selfSignedCert,
  startTlsServer,
  validity,
  type TestCa,
  type TestTlsServer,
} from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The TLS fixtures the ssl_certificate check is tested against behave like real servers to node's tls. */

interface Handshake {
  authorized: boolean;
  authorizationError: string | null;
  hostnameError: string | null;
  validTo: Date;
  subjectAltName: string | undefined;
  protocol: string | null;
}

function handshake(port: number, servername: string, ca: string[]): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, ca, rejectUnauthorized: false }, () => {
      const cert = socket.getPeerCertificate();
      const hostnameError = tls.checkServerIdentity(servername, cert);
      resolve({
        authorized: socket.authorized,
        authorizationError: socket.authorizationError ? String(socket.authorizationError) : null,
        hostnameError: hostnameError ? (hostnameError as NodeJS.ErrnoException).code ?? hostnameError.message : null,
        validTo: new Date(cert.valid_to),
        subjectAltName: cert.subjectaltname,
        protocol: socket.getProtocol(),
      });
      socket.end();
    });
    socket.on('error', reject);
  });
}

let ca: TestCa;
let server: TestTlsServer;
let selfSigned: TestTlsServer;

beforeAll(async () => {
  ca = await createTestCa();
  const [valid, expired, notYetValid, expiring, wrongHost, self] = await Promise.all([
    issueCert(ca, { hostnames: ['valid.example', 'www.valid.example'] }),
    issueCert(ca, { hostnames: ['expired.example'], ...validity.expiredDaysAgo(3) }),
    issueCert(ca, { hostnames: ['future.example'], ...validity.notYetValidForDays(2) }),
    issueCert(ca, { hostnames: ['expiring.example'], ...validity.expiringInDays(10) }),
    issueCert(ca, { hostnames: ['other.example'] }),
    selfSignedCert({ hostnames: ['self.example'] }),
  ]);
  server = await startTlsServer({
    ...valid,
    sni: {
      'expired.example': expired,
      'future.example': notYetValid,
      'expiring.example': expiring,
      'wrong.example': wrongHost,
    },
  });
  selfSigned = await startTlsServer(self);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await selfSigned?.close();
});

describe('TLS fixtures', () => {
  it('a CA-issued certificate is authorized for its SAN names', async () => {
    const result = await handshake(server.port, 'www.valid.example', [ca.cert]);
    expect(result).toMatchObject({ authorized: true, authorizationError: null, hostnameError: null });
    expect(result.subjectAltName).toBe('DNS:valid.example, DNS:www.valid.example');
    expect(result.protocol).toMatch(/^TLSv1\.[23]$/);
    expect(server.serverNames).toContain('www.valid.example');
  });

  it('an expired certificate fails with CERT_HAS_EXPIRED', async () => {
    const result = await handshake(server.port, 'expired.example', [ca.cert]);
    expect(result).toMatchObject({ authorized: false, authorizationError: 'CERT_HAS_EXPIRED', hostnameError: null });
  });

  it('a not-yet-valid certificate fails with CERT_NOT_YET_VALID', async () => {
    const result = await handshake(server.port, 'future.example', [ca.cert]);
    expect(result).toMatchObject({ authorized: false, authorizationError: 'CERT_NOT_YET_VALID' });
  });

  it('a certificate expiring in 10 days is valid and says so', async () => {
    const result = await handshake(server.port, 'expiring.example', [ca.cert]);
    expect(result.authorized).toBe(true);
    const daysLeft = (result.validTo.getTime() - Date.now()) / 86_400_000;
    expect(daysLeft).toBeGreaterThan(9.9);
    expect(daysLeft).toBeLessThanOrEqual(10);
  });

  it('a certificate for another name has a trusted chain but fails hostname verification', async () => {
    const result = await handshake(server.port, 'wrong.example', [ca.cert]);
    // node folds the checkServerIdentity failure into authorizationError once the chain is good.
    expect(result).toMatchObject({ authorized: false, hostnameError: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    expect(result.authorizationError).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('a self-signed certificate fails with DEPTH_ZERO_SELF_SIGNED_CERT', async () => {
    const result = await handshake(selfSigned.port, 'self.example', [ca.cert]);
    expect(result).toMatchObject({ authorized: false, authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('without the test CA a valid certificate is untrusted', async () => {
    const result = await handshake(server.port, 'valid.example', []);
    expect(result.authorized).toBe(false);
    expect(result.authorizationError).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });
});
