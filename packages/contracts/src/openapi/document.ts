import { z } from '../zod.js';
import { API_ROUTES, type ApiRoute } from '../api/routes.js';
import { apiErrorSchema } from '../errors.js';
import { API_RESPONSES, SESSION_FREE_CALLS } from './responses.js';

/** A JSON Schema (draft 2020-12, the dialect OpenAPI 3.1 uses) as `z.toJSONSchema` writes it. */
type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: true; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content: { 'application/json': { schema: JsonSchema } } }>;
  security?: Array<Record<string, string[]>>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, Record<string, string>> };
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  400: 'Invalid input',
  401: 'Not signed in',
  403: 'Not allowed (plan or permission)',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Unsupported content type',
  429: 'Too many requests',
  500: 'Server error',
  503: 'Unavailable, try again later',
};

/**
 * Input schemas are described as the client sends them (before transforms and defaults), answers as
 * the service writes them. A transform has no JSON Schema: it is described as "any" rather than refused.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** Every error answer has one body: described once, referred to by each error status. */
const API_ERROR_REF = { $ref: '#/components/schemas/ApiError' };

function answerSchemaOf(schema: z.ZodType): JsonSchema {
  return schema === apiErrorSchema ? API_ERROR_REF : jsonSchemaOf(schema, 'output');
}

/** `/api/domains/:id` → `/api/domains/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** Each property of an object schema (params or querystring) as one OpenAPI parameter. */
function parametersOf(schema: z.ZodType | undefined, location: 'path' | 'query'): OpenApiParameter[] {
  if (!schema) return [];
  const object = jsonSchemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property as JsonSchema & { description?: string };
    return {
      name,
      in: location,
      required: location === 'path' || (object.required ?? []).includes(name),
      schema: propertySchema,
      ...(typeof description === 'string' ? { description } : {}),
    };
  });
}

function operationOf(route: ApiRoute): OpenApiOperation {
  const key = `${route.method} ${route.path}`;
  const responses = API_RESPONSES[key];
  if (!responses) throw new Error(`No answers described for ${key} (add it to API_RESPONSES)`);
  const parameters = [...parametersOf(route.params, 'path'), ...parametersOf(route.querystring, 'query')];
  return {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path).replace(/[^A-Z0-9]+(.)?/gi, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: key,
    tags: [route.path.split('/')[2]!],
    ...(parameters.length ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(route.body, 'input') } } } } : {}),
    ...(route.rawBody ? { requestBody: { required: true, content: Object.fromEntries(route.rawBody.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])) } } : {}),
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, schema]) => [
        status,
        { description: STATUS_TEXT[Number(status)] ?? `HTTP ${status}`, content: { 'application/json': { schema: answerSchemaOf(schema) } } },
      ]),
    ),
    // The web app's bearer token or the session cookie.
    ...(SESSION_FREE_CALLS.has(key) ? {} : { security: [{ bearerAuth: [] }, { sessionCookie: [] }] }),
  };
}

/**
 * The OpenAPI 3.1 description of every public `/api` call, built from the contracts' schemas
 * (`API_ROUTES` for the input, `API_RESPONSES` for the answers), so it cannot drift from what the
 * services check. zod 4 writes JSON Schema 2020-12 itself, which is OpenAPI 3.1's dialect: no
 * converter library is needed. Build it once (it walks every schema), not per request.
 */
export function buildOpenApiDocument(): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of API_ROUTES) {
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sendwell API',
      version: '1.0.0',
      description:
        'Every call the web app makes through the gateway. Errors answer `{ code, message }`; a state-changing call from a browser must be same-origin (the gateway refuses cross-site requests).',
    },
    paths,
    components: {
      schemas: { ApiError: jsonSchemaOf(apiErrorSchema, 'output') },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        // `__Host-token` over HTTPS (see server-kit's sessionCookie).
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'token' },
      },
    },
  };
}
