import { buildOpenApiDocument } from '@sendwell/contracts';
import type { App } from '@sendwell/server-kit';
import { REFERENCE_STYLESHEET, renderReferencePage } from '../docs/reference-page.js';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';
const STYLESHEET_PATH = '/api/docs/style.css';

/**
 * The API's own description, served by the gateway rather than forwarded: `/api/openapi.json`
 * (OpenAPI 3.1 from the contracts) and `/api/docs`, its reference page. Both are built once here
 * at start; these exact paths take precedence over the proxy's `/api/*`.
 */
export function registerDocsRoutes(app: App): void {
  const openApi = buildOpenApiDocument();
  const document = JSON.stringify(openApi);
  const page = renderReferencePage(openApi, STYLESHEET_PATH);
  const cacheControl = 'public, max-age=300';

  app.get(OPENAPI_PATH, async (_request, reply) => reply.type('application/json; charset=utf-8').header('cache-control', cacheControl).send(document));
  app.get(DOCS_PATH, async (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', cacheControl).send(page));
  app.get(STYLESHEET_PATH, async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', cacheControl).send(REFERENCE_STYLESHEET));
}
