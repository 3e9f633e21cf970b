import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsblZone } from '../../src/checks/blacklist/zones.js';
import type { BlocklistHealthView } from '../../src/checks/types.js';
import { GMAIL_CLIP_BYTES, readContent } from '../../src/mail-test/content.js';
import { parseMessage } from '../../src/mail-test/parse-message.js';
import { createResolver } from '../../src/dns/resolver.js';
import { buildMessage, type MessageSpec } from './messages/build-message.js';

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer({
    records: {
      // A domain list with generic answers, the keyed Spamhaus DBL, and a list the registry found degraded.
      'listed.example.dbl.test': { A: ['127.0.0.2'] },
      'listed.example.s3cr3tkey.dbl.dq.spamhaus.net': { A: ['127.0.1.2'] },
      'clean.example.degraded.test': { A: ['127.0.0.2'] },
    },
  });
});
afterAll(async () => {
  await dns?.close();
});

const zones = [dnsblZone('ips.test', 'ip'), dnsblZone('dbl.test', 'domain'), dnsblZone('s3cr3tkey.dbl.dq.spamhaus.net', 'domain'), dnsblZone('degraded.test', 'domain')];
const health: BlocklistHealthView = { degradedReason: (zone) => (zone === 'degraded.test' ? 'listed its negative test point' : null) };

async function contentOf(spec: MessageSpec) {
  const resolver = createResolver({ servers: [{ host: dns.host, port: dns.port }], timeoutMs: 1000 });
  return readContent(await parseMessage(buildMessage(spec)), { resolver, blocklists: { zones, health } });
}
const codes = (part: { findings: Array<{ code: string }> }) => part.findings.map((f) => f.code);
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('readContent', () => {
  it('reads a multipart message with clean https links without a finding', async () => {
    const part = await contentOf({ html: `<p>${words(40)}</p><a href="https://www.clean.example/news">Read <b>the</b> news</a><img src="https://clean.example/logo.png" alt="Logo">` });
    expect(part.findings).toEqual([]);
    expect(part.value).toMatchObject({ textPart: true, htmlPart: true, images: 1, htmlWords: 43 });
    expect(part.value.links).toEqual([
      { href: 'https://www.clean.example/news', host: 'www.clean.example', text: 'Read the news', plainHttp: false, shortener: false, textMismatch: false, blocklisted: false },
    ]);
  });

  it('finds plain http, shorteners and link text that shows another site', async () => {
    const part = await contentOf({
      html: `<p>${words(40)}</p>
        <a href="http://clean.example/a">plain</a>
        <a href="https://bit.ly/3xYz">short</a>
        <a href="https://www.rb.gy/abc">also short</a>
        <a href="https://login.evil.example/x">www.mybank.com</a>
        <a href="https://clean.example/b">https://www.clean.example/b</a>
        <a href="mailto:info@clean.example">info@clean.example</a>`,
    });
    expect(part.value.links.map((l) => [l.host, l.plainHttp, l.shortener, l.textMismatch])).toEqual([
      ['clean.example', true, false, false],
      ['bit.ly', false, true, false],
      ['www.rb.gy', false, true, false],
      ['login.evil.example', false, false, true],
      ['clean.example', false, false, false],
    ]);
    expect(codes(part)).toEqual(['PLAIN_HTTP_LINKS', 'URL_SHORTENER', 'LINK_TEXT_MISMATCH']);
    expect(part.findings.find((f) => f.code === 'LINK_TEXT_MISMATCH')).toMatchObject({ severity: 'error', points: 1.5 });
    expect(part.findings.find((f) => f.code === 'LINK_TEXT_MISMATCH')?.explanation).toContain('www.mybank.com');
  });

  it('looks up link domains on the domain lists by their display name, never asking a degraded list or showing a key', async () => {
    dns.resetLog();
    const part = await contentOf({
      html: `<p>${words(40)}</p><a href="https://www.listed.example/offer">offer</a><a href="https://a.clean.example/">home</a><a href="https://b.clean.example/">more</a>`,
    });
    expect(part.value.links.map((l) => [l.host, l.blocklisted])).toEqual([
      ['www.listed.example', true],
      ['a.clean.example', false],
      ['b.clean.example', false],
    ]);
    const listed = part.findings.find((f) => f.code === 'LINK_DOMAIN_BLOCKLISTED');
    expect(listed).toMatchObject({ severity: 'error', points: 2 });
    expect(listed?.explanation).toContain('listed.example (dbl.test, Spamhaus DBL (DQS))');
    expect(JSON.stringify(part)).not.toContain('s3cr3tkey');
    // Each registered domain once, on the two healthy domain lists only: no IP list, no degraded list.
    const asked = dns.queryLog.filter((q) => q.type === 'A').map((q) => q.name.toLowerCase()).sort();
    expect(asked).toEqual(['clean.example.dbl.test', 'clean.example.s3cr3tkey.dbl.dq.spamhaus.net', 'listed.example.dbl.test', 'listed.example.s3cr3tkey.dbl.dq.spamhaus.net']);
  });

  it('asks about at most 20 link domains', async () => {
    dns.resetLog();
    const links = Array.from({ length: 35 }, (_, i) => `<a href="https://site${i}.example/">site ${i}</a>`).join('\n');
    const part = await contentOf({ html: `<p>${words(40)}</p>${links}` });
    expect(part.value.links).toHaveLength(35);
    expect(dns.queryLog.filter((q) => q.type === 'A')).toHaveLength(20 * 2);
  });

  it('takes links from the text part when there is no HTML', async () => {
    const part = await contentOf({ text: 'Read it at https://clean.example/news or http://bit.ly/x.\r\n' });
    expect(part.value.links.map((l) => [l.href, l.text, l.plainHttp, l.shortener])).toEqual([
      ['https://clean.example/news', null, false, false],
      ['http://bit.ly/x', null, true, true],
    ]);
    expect(codes(part)).toEqual(['PLAIN_HTTP_LINKS', 'URL_SHORTENER']);
  });

  it('warns of HTML without text, an image-only message and images without alt text', async () => {
    const part = await contentOf({ text: null, html: '<img src="https://clean.example/banner.png"><p>Big sale</p><img src="https://clean.example/2.png" alt="">' });
    expect(part.value).toMatchObject({ textPart: false, htmlPart: true, images: 2, htmlWords: 2 });
    expect(part.findings.map((f) => [f.code, f.severity, f.points])).toEqual([
      ['HTML_WITHOUT_TEXT', 'warning', 0.5],
      ['IMAGE_ONLY', 'warning', 1],
      ['IMAGES_WITHOUT_ALT', 'info', 0],
    ]);
  });

  it('does not count script, style or title text as words', async () => {
    const part = await contentOf({ html: `<html><head><title>t t t</title><style>p { color: red }</style></head><body><script>var a = 1;</script><p>three little words</p></body></html>` });
    expect(part.value.htmlWords).toBe(3);
  });

  it('warns of an empty body and of HTML Gmail clips', async () => {
    expect(codes(await contentOf({ text: null }))).toEqual(['BODY_EMPTY']);
    const long = `<p>${words(20_000)}</p>`;
    expect(long.length).toBeGreaterThan(GMAIL_CLIP_BYTES);
    const clipped = await contentOf({ html: long });
    expect(codes(clipped)).toEqual(['HTML_CLIPPED_BY_GMAIL']);
    expect(clipped.value.sizeBytes).toBeGreaterThan(GMAIL_CLIP_BYTES);
  });
});
