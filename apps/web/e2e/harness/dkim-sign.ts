import { createHash, createSign } from 'node:crypto';

/**
 * A DKIM signer for the browser tests (RFC 6376, rsa-sha256, relaxed/relaxed), small on purpose:
 * mailauth is the scanner's dependency, not the web app's, so it does not resolve here.
 */

/** §3.4.4: WSP runs become one space, trailing WSP goes, trailing empty lines go, a non-empty body ends in CRLF. */
export function relaxedBody(body: string): string {
  const lines = body.replace(/\r?\n/g, '\r\n').split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}

/** §3.4.2: lower-case name, unfolded value with WSP runs as one space, no WSP around the colon or at the end. */
export function relaxedHeader(name: string, value: string): string {
  const unfolded = value.replace(/\r?\n(?=[ \t])/g, '').replace(/[ \t]+/g, ' ').trim();
  return `${name.toLowerCase().trim()}:${unfolded}`;
}

export interface DkimKey {
  domain: string;
  selector: string;
  /** PKCS#8 PEM. */
  privateKey: string;
}

/**
 * Signs `headers` (each name appearing once) and `body`, and answers the whole message with the
 * DKIM-Signature header first. Every given header is signed, in the given order (§5.4).
 */
export function dkimSignedMessage(headers: ReadonlyArray<readonly [string, string]>, body: string, key: DkimKey, now = new Date()): string {
  const bodyHash = createHash('sha256').update(relaxedBody(body)).digest('base64');
  const tags = [
    'v=1',
    'a=rsa-sha256',
    'c=relaxed/relaxed',
    `d=${key.domain}`,
    `s=${key.selector}`,
    `t=${Math.floor(now.getTime() / 1000)}`,
    `h=${headers.map(([name]) => name.toLowerCase()).join(':')}`,
    `bh=${bodyHash}`,
    'b=',
  ].join('; ');
  // §3.7: the signed headers, then the signature header itself with an empty b= and no final CRLF.
  const signedData = headers.map(([name, value]) => `${relaxedHeader(name, value)}\r\n`).join('') + relaxedHeader('DKIM-Signature', tags);
  const signature = createSign('RSA-SHA256').update(signedData).sign(key.privateKey, 'base64');
  const head = [['DKIM-Signature', `${tags}${signature}`] as const, ...headers].map(([name, value]) => `${name}: ${value}`).join('\r\n');
  return `${head}\r\n\r\n${body.replace(/\r?\n/g, '\r\n')}`;
}
