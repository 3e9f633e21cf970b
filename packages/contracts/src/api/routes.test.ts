import { describe, expect, expectTypeOf, it } from 'vitest';
import { API_RESPONSES } from '../openapi/responses.js';
import { createDomainBody, domainIdParams, listDomainsAnswer, type ListDomainsAnswer } from './domains.js';
import { apiRouteOptions } from './route-options.js';
import { API_ROUTES, apiRoute, type ApiAnswer, type ApiBody, type ApiPathParams, type ApiRouteKey } from './routes.js';

describe('one route declaration (API_ROUTES)', () => {
  it('finds an entry by its key, and refuses a key it does not list', () => {
    expect(apiRoute('GET /api/domains/:id')).toMatchObject({ method: 'GET', path: '/api/domains/:id', service: 'domains', params: domainIdParams });
    expect(() => apiRoute('GET /api/nowhere' as ApiRouteKey)).toThrow('not in API_ROUTES');
    expect(new Set(API_ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(API_ROUTES.length);
  });

  it("turns an entry into Fastify's route options under the plugin's prefix: input schemas and answers from the contracts", () => {
    expect(apiRouteOptions('/api/domains', 'GET /api/domains/:id')).toEqual({
      method: 'GET',
      url: '/:id',
      schema: { params: domainIdParams, response: API_RESPONSES['GET /api/domains/:id'] },
    });
    expect(apiRouteOptions('', 'POST /api/domains')).toEqual({ method: 'POST', url: '/api/domains', schema: { body: createDomainBody, response: API_RESPONSES['POST /api/domains'] } });
    expect(apiRouteOptions('', 'GET /api/domains').schema.response[200]).toBe(listDomainsAnswer);
    expect(apiRouteOptions('/api/domains', 'POST /api/domains').url).toBe('');
    expect(() => apiRouteOptions('/api/reports', 'GET /api/domains')).toThrow('not under the prefix');
    expect(() => apiRouteOptions('/api/domain', 'GET /api/domains')).toThrow('not under the prefix');
    // @ts-expect-error the options are the contracts' alone: a route cannot declare its own schemas
    expect(apiRouteOptions('/api/domains', 'GET /api/domains/:id', { params: createDomainBody }).schema.params).toBe(domainIdParams);
  });

  it("gives each call's success answers its entry's response schema", () => {
    for (const route of API_ROUTES) {
      const answers = API_RESPONSES[`${route.method} ${route.path}`] ?? {};
      for (const [status, schema] of Object.entries(answers)) if (Number(status) < 300) expect(schema, `${route.method} ${route.path} ${status}`).toBe(route.response);
    }
  });

  it('types answers, bodies and path parameters from the entries', () => {
    expectTypeOf<ApiAnswer<'GET /api/domains'>>().toEqualTypeOf<ListDomainsAnswer>();
    expectTypeOf<ApiBody<'POST /api/domains'>>().toEqualTypeOf<{ name: string }>();
    expectTypeOf<ApiPathParams<'/api/domains/:id/scans/:scanId'>>().toEqualTypeOf<{ id: string | number } & { scanId: string | number }>();
  });
});
