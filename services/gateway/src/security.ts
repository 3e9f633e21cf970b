import type { App } from '@sendwell/server-kit';
import helmet, { type HelmetOptions } from 'helmet';

export interface SecurityOptions {
  /** Reached over HTTPS (directly or through a proxy): adds HSTS and upgrade-insecure-requests. */
  https: boolean;
}

/**
 * Helmet's defaults plus a CSP that admits the built React app (same-origin scripts and styles),
 * Stripe.js with its frames and the report preview's same-origin frame. HSTS and upgrade-insecure-requests only over HTTPS: on plain
 * http://localhost the upgrade would break every asset.
 */
export function helmetOptions({ https }: SecurityOptions): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        scriptSrc: ["'self'", 'https://js.stripe.com'],
        // 'self': the Reports screen previews a report's HTML in a frame (served with its own script-free CSP).
        frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
        connectSrc: ["'self'", 'https://api.stripe.com'],
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  };
}

/** Runs helmet once against a recorder and returns the headers it sets; they never vary per request here. */
export function securityHeaders(options: SecurityOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(helmetOptions(options))({} as never, recorder as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * The same headers `@fastify/helmet` would send, computed once at start. That plugin builds
 * helmet's middleware (and re-parses the CSP) on every request, which cost the gateway more than
 * half its throughput in bench/gateway; there are no per-request nonces here, so nothing is lost.
 */
export function registerSecurityHeaders(app: App, options: SecurityOptions): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
