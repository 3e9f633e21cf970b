import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INVOICE_PDF_UNAVAILABLE_MESSAGE } from '@sendwell/contracts';
import { AppError, createLogger, OutboundHttp } from '@sendwell/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_PDF_MAX_BYTES, InvoicePdfSource } from '../src/stripe/invoice-pdf.js';

/**
 * The invoice PDF link is Stripe's data, not ours: fetched only from Stripe's hosts (here the
 * configured API origin, a real server on loopback standing where the stand-in would), with no
 * redirect followed and a size cap. `elsewhere` is a host that must never be asked.
 * The ordinary download through the route against the Stripe stand-in is in subscription.routes.test.ts.
 */
const PDF = Buffer.from('%PDF-1.4\n% a small invoice\n%%EOF\n');

interface Counting {
  origin: string;
  hits: string[];
  server: Server;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Counting> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}

let stripeApi: Counting;
let elsewhere: Counting;
let http: OutboundHttp;
let pdfs: InvoicePdfSource;

beforeAll(async () => {
  elsewhere = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF));
  stripeApi = await serve((req, res) => {
    const path = req.url ?? '';
    if (path === '/invoices/in_ok/pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF);
    if (path === '/invoices/in_moved/pdf') return res.writeHead(302, { location: `${elsewhere.origin}/invoices/in_moved/pdf` }).end();
    if (path === '/invoices/in_declared_huge/pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(INVOICE_PDF_MAX_BYTES + 1) });
      // Never sent whole: the client stops at the header.
      return res.write(Buffer.alloc(64 * 1024));
    }
    if (path === '/invoices/in_chunked_huge/pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      const block = Buffer.alloc(1024 * 1024, 0x25);
      let sent = 0;
      const more = (): void => {
        while (sent <= INVOICE_PDF_MAX_BYTES) {
          sent += block.length;
          if (!res.write(block)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => undefined);
      return more();
    }
    res.writeHead(404).end();
  });
  http = new OutboundHttp({ policy: { allowLoopback: true }, timeoutMs: 5_000, httpsOnly: false });
  pdfs = new InvoicePdfSource(http, stripeApi.origin, createLogger('billing-test', 'silent'));
});

afterAll(async () => {
  await http.close();
  for (const { server } of [stripeApi, elsewhere]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** The refusal the route answers: 503 with the contracts' message. */
async function expectRefused(link: string): Promise<void> {
  const error = await pdfs.fetch('in_test', link).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: INVOICE_PDF_UNAVAILABLE_MESSAGE });
}

describe('the invoice PDF fetch', () => {
  it("fetches the PDF from the configured Stripe API's origin", async () => {
    expect(await pdfs.fetch('in_ok', `${stripeApi.origin}/invoices/in_ok/pdf`)).toEqual(PDF);
  });

  it('refuses a link on any host but Stripe’s, without asking it', async () => {
    await expectRefused(`${elsewhere.origin}/invoices/in_ok/pdf`);
    await expectRefused('https://files.stripe.com.evil.example/invoice.pdf');
    await expectRefused('https://stripe.com@127.0.0.1/invoice.pdf');
    await expectRefused('not a link');
    expect(elsewhere.hits).toEqual([]);
  });

  it('does not follow a redirect, even from a Stripe host', async () => {
    await expectRefused(`${stripeApi.origin}/invoices/in_moved/pdf`);
    expect(stripeApi.hits).toContain('/invoices/in_moved/pdf');
    expect(elsewhere.hits).toEqual([]);
  });

  it(`refuses a body over ${INVOICE_PDF_MAX_BYTES} bytes, declared or chunked`, async () => {
    await expectRefused(`${stripeApi.origin}/invoices/in_declared_huge/pdf`);
    await expectRefused(`${stripeApi.origin}/invoices/in_chunked_huge/pdf`);
  });

  it('refuses a link whose fetch fails (404 at Stripe)', async () => {
    await expectRefused(`${stripeApi.origin}/invoices/in_gone/pdf`);
  });
});
