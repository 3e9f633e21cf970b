import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '../api/routes.js';
import { buildOpenApiDocument, openApiPath } from './document.js';
import { API_RESPONSES, SESSION_FREE_CALLS } from './responses.js';

const keys = API_ROUTES.map((route) => `${route.method} ${route.path}`);

describe('the OpenAPI document built from the contracts', () => {
  it('has the answers of exactly the calls API_ROUTES lists', () => {
    expect(Object.keys(API_RESPONSES).sort()).toEqual([...keys].sort());
    for (const call of SESSION_FREE_CALLS) expect(keys).toContain(call);
  });

  it('writes path parameters the OpenAPI way', () => {
    expect(openApiPath('/api/domains/:id/scans/:scanId')).toBe('/api/domains/{id}/scans/{scanId}');
  });

  it('describes input as the client sends it (before transforms), optional query fields as optional', () => {
    const operation = buildOpenApiDocument().paths['/api/alerts']!.get!;
    // The service reads `unreadOnly` as a boolean after its transform; the client sends the string.
    expect(operation.parameters).toEqual([
      { name: 'unreadOnly', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] } },
      { name: 'limit', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100, default: 50 }) },
    ]);
  });

  it('asks for a session on every call but the session-free ones', () => {
    const paths = buildOpenApiDocument().paths;
    for (const route of API_ROUTES) {
      const operation = paths[openApiPath(route.path)]![route.method.toLowerCase()]!;
      expect(Boolean(operation.security), `${route.method} ${route.path}`).toBe(!SESSION_FREE_CALLS.has(`${route.method} ${route.path}`));
    }
  });
});
