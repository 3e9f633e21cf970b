import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripeRoutes, type Route } from './api.js';
import { StripeApiError } from './errors.js';
import { list, parseForm, str, type Form } from './form.js';
import { tinyPdf } from './pdf.js';
import { newId, now, Store, type StripeObject } from './store.js';
import { deliver } from './webhooks.js';

/** What Stripe.js calls with a publishable key: `/v1/{payment|setup}_intents/{id}` and its `/confirm`. */
const PUBLIC_INTENT_CALL = /^\/v1\/(payment_intents|setup_intents)\/([^/]+)(?:\/confirm)?$/;

/** The API version the installed `stripe` package pins; events carry it as Stripe's do. */
const API_VERSION = '2026-10-28.endive';

export interface StripeStandInOptions {
  /** 12111 (stripe-mock's port) unless given; 0 picks a free one. */
  port?: number;
  host?: string;
  /** Where events are POSTed, signed with `webhookSecret`; none are sent without it. */
  webhookUrl?: string;
  webhookSecret?: string;
}

export interface StripeStandIn {
  url: string;
  host: string;
  port: number;
  /** Every event so far, oldest first. */
  events(): StripeObject[];
  /** Resolves once every event so far has been delivered (or given up on). */
  deliveries(): Promise<void>;
  close(): Promise<void>;
}

/** Stripe's test mode on loopback, speaking its wire format, for the billing service and its tests. */
export async function startStripeStandIn(options: StripeStandInOptions = {}): Promise<StripeStandIn> {
  const host = options.host ?? '127.0.0.1';
  const store = new Store();
  let url = '';
  let pending: Promise<unknown> = Promise.resolve();

  const emit = (type: string, object: StripeObject): void => {
    const event = store.put({
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      type,
      created: now(),
      livemode: false,
      pending_webhooks: options.webhookUrl ? 1 : 0,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object) },
    });
    const { webhookUrl, webhookSecret } = options;
    if (!webhookUrl || !webhookSecret) return;
    const payload = JSON.stringify(event, null, 2);
    // One after another, so the receiver sees events in the order they happened.
    pending = pending.then(() => deliver(webhookUrl, webhookSecret, payload));
  };

  const routes = stripeRoutes(store, emit, () => url);
  const server = createServer((req, res) => {
    handle(req, res, routes, store).catch((error: unknown) => {
      send(res, 500, { error: { type: 'api_error', message: String(error) } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 12111, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  url = `http://${host}:${port}`;

  return {
    url,
    host,
    port,
    events: () => store.all('event'),
    deliveries: async () => {
      await pending;
    },
    close: async () => {
      await pending;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, routes: Route[], store: Store): Promise<void> {
  const target = new URL(req.url ?? '/', 'http://stand-in');
  const invoicePage = /^\/invoices\/([^/]+)(\/pdf)?$/.exec(target.pathname);
  if (req.method === 'GET' && invoicePage) return sendInvoicePage(res, store, invoicePage[1]!, Boolean(invoicePage[2]));

  // Stripe.js in a browser calls with form posts only (no preflight); answer any origin as Stripe does.
  res.setHeader('access-control-allow-origin', '*');
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'content-type, authorization' }).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form: Form = { ...parseForm(target.search.slice(1)), ...parseForm(Buffer.concat(chunks).toString()) };

  // A secret key may call anything; a publishable key (Stripe.js) only what a browser may: an
  // intent's confirm and retrieve, proven by that intent's client secret.
  const key = apiKey(req.headers.authorization) ?? str(form, 'key');
  const publicIntent = PUBLIC_INTENT_CALL.exec(target.pathname);
  const allowed =
    key?.startsWith('sk_test_') ||
    (key?.startsWith('pk_test_') && publicIntent !== null && store.find(publicIntent[2]!)?.client_secret === str(form, 'client_secret'));
  if (!allowed) {
    return send(res, 401, {
      error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${key ?? '(none)'}` },
    });
  }
  delete form.key;
  delete form.client_secret;

  for (const route of routes) {
    const match = route.method === req.method ? route.pattern.exec(target.pathname) : null;
    if (!match) continue;
    try {
      const result = route.handle(match.slice(1), form) as StripeObject;
      return send(res, 200, store.expand(result, list(form, 'expand') as string[]));
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      return send(res, error.status, { error: error.body });
    }
  }
  send(res, 404, {
    error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${target.pathname}).` },
  });
}

function sendInvoicePage(res: ServerResponse, store: Store, id: string, pdf: boolean): void {
  const invoice = store.find(id);
  if (invoice?.object !== 'invoice') return send(res, 404, { error: { type: 'invalid_request_error', message: 'No such invoice' } });
  const summary = `Invoice ${String(invoice.number)}: ${String(invoice.amount_due)} ${String(invoice.currency)} (${String(invoice.status)})`;
  if (pdf) {
    res.writeHead(200, { 'content-type': 'application/pdf' }).end(tinyPdf(summary));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${summary}</title><p>${summary}</p>`);
}

/** The secret key, sent as Stripe takes it: `Bearer sk_test_…`, or Basic with the key as user (`curl -u`). */
function apiKey(authorization = ''): string | undefined {
  const [scheme, value = ''] = authorization.split(' ');
  if (scheme === 'Bearer') return value;
  if (scheme === 'Basic') return Buffer.from(value, 'base64').toString().split(':')[0];
  return undefined;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') })
    .end(JSON.stringify(body));
}
