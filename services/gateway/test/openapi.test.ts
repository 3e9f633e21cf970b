import { validate, compileErrors } from '@readme/openapi-parser';
import { API_RESPONSES, API_ROUTES, openApiPath, type OpenApiDocument } from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchRoute, ROUTE_TABLE } from '../src/proxy/route-table.js';
import { startGateway, type Gateway } from './helpers.js';

/**
 * Route-table entries whose service serves no call yet: nothing to describe. When a call lands
 * there, its API_ROUTES entry puts it in the document and the test below asks for its entry to leave
 * this list. Every service serves its calls now; the list stays for the next one.
 */
const NOT_SERVED_YET = new Set<string>([]);

let gateway: Gateway;
let document: OpenApiDocument;

beforeAll(async () => {
  gateway = await startGateway();
  const answer = await gateway.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  document = answer.json();
});

afterAll(async () => {
  await gateway?.close();
});

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('describes every call in API_ROUTES with its inputs and every answer its route declares', () => {
    for (const route of API_ROUTES) {
      const operation = document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      const declared = Object.keys(API_RESPONSES[`${route.method} ${route.path}`] ?? {});
      expect(Object.keys(operation!.responses).sort()).toEqual(declared.sort());
      expect(declared.length).toBeGreaterThan(1);
      const pathNames = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      expect(operation!.parameters?.filter((p) => p.in === 'path').map((p) => p.name) ?? []).toEqual(pathNames);
      if (route.querystring) expect(operation!.parameters?.some((p) => p.in === 'query')).toBe(true);
      expect(Boolean(operation!.requestBody)).toBe(Boolean(route.body ?? route.rawBody));
    }
  });

  it('describes a body and a parameter precisely (field names, required, constraints)', () => {
    const register = document.paths['/api/auth/register']!.post!;
    const body = register.requestBody!.content['application/json']!.schema as { properties: Record<string, unknown>; required: string[] };
    expect(body.required).toEqual(expect.arrayContaining(['email', 'password']));
    const domain = document.paths['/api/domains/{id}']!.get!;
    expect(domain.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(domain.security).toBeDefined();
    expect(document.paths['/api/auth/login']!.post!.security).toBeUndefined();
    expect(domain.responses['404']!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ApiError' });
  });

  it('describes every route-table entry the gateway forwards to a service that serves calls, and only forwarded paths', () => {
    const described = Object.keys(document.paths);
    for (const entry of ROUTE_TABLE) {
      const inEntry = described.filter((path) => matchRoute(path)?.pattern === entry.pattern);
      if (NOT_SERVED_YET.has(entry.pattern)) expect({ entry: entry.pattern, inEntry }).toEqual({ entry: entry.pattern, inEntry: [] });
      else expect({ entry: entry.pattern, count: inEntry.length }).not.toEqual({ entry: entry.pattern, count: 0 });
    }
    for (const route of API_ROUTES) expect(matchRoute(route.path)?.upstream, route.path).toBe(route.service);
  });

  it('is answered by the gateway itself, to HEAD too, and cacheable', async () => {
    const head = await gateway.app.inject({ method: 'HEAD', url: '/api/openapi.json' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['cache-control']).toBe('public, max-age=300');
  });
});

describe('GET /api/docs', () => {
  it('answers a readable HTML reference of every call', async () => {
    const answer = await gateway.app.inject({ method: 'GET', url: '/api/docs' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const route of API_ROUTES) expect(answer.body).toContain(`${route.method} ${openApiPath(route.path)}`);
  });

  it('loads under the strict CSP: no script, no inline style, only same-origin links', async () => {
    const answer = await gateway.app.inject({ method: 'GET', url: '/api/docs' });
    const csp = String(answer.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(answer.body).not.toMatch(/<script|\son\w+=|\sstyle=|<style/i);
    const urls = [...answer.body.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(API_ROUTES.length);
    for (const url of urls) expect(url).toMatch(/^(#|\/[^/])/);
    const stylesheet = /<link rel="stylesheet" href="([^"]+)">/.exec(answer.body)![1]!;
    const css = await gateway.app.inject({ method: 'GET', url: stylesheet });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('escapes what it prints from the schemas', async () => {
    const answer = await gateway.app.inject({ method: 'GET', url: '/api/docs' });
    // The schemas printed as JSON: their quotes arrive as entities, never as markup.
    expect(answer.body).toContain('&quot;type&quot;');
    expect(answer.body).not.toMatch(/<pre>[^"<]*"[^<]*<\/pre>/);
  });
});
