import { describe, expect, it } from 'vitest';
import { OutboundError, OutboundHttp } from './outbound-http.js';

describe('OutboundHttp.check', () => {
  const strict = new OutboundHttp({ policy: { allowLoopback: false }, timeoutMs: 1000, httpsOnly: true });
  const loose = new OutboundHttp({ policy: { allowLoopback: true }, timeoutMs: 1000, httpsOnly: false });

  it('refuses http in production, credentials in the URL, and private or loopback literals before connecting', () => {
    for (const [url, reason] of [
      ['http://hooks.example.com/x', 'only https:// addresses are allowed'],
      ['https://u:p@hooks.example.com/x', 'the URL must not carry credentials'],
      ['https://10.0.0.5/x', 'the address is not public (private network)'],
      ['https://127.0.0.1:8443/x', 'the address is not public (loopback)'],
      ['https://[::ffff:192.168.0.1]/x', 'the address is not public (private network, in an IPv4-mapped address)'],
      ['ftp://hooks.example.com/x', 'only https:// addresses are allowed'],
      ['not a url', 'the URL is not valid'],
    ]) {
      expect(() => strict.check(url!), url).toThrow(new OutboundError(reason!, true));
    }
    expect(strict.check('https://hooks.example.com/x').hostname).toBe('hooks.example.com');
  });

  it('lets loopback and http through only when told (tests and development)', () => {
    expect(loose.check('http://127.0.0.1:8080/x').port).toBe('8080');
    expect(() => loose.check('https://10.0.0.5/x')).toThrow('private network');
  });

  it('refuses a name that resolves to a private address at connect time', async () => {
    await expect(strict.post('https://localhost./x', '{}', {})).rejects.toMatchObject({ permanent: true, message: expect.stringContaining('not public') });
  });
});
