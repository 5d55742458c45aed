import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { z } from 'zod';
import { ZIdempotencyKey } from '@console/shared';
import { ZProblem } from './problem';
import { addExamples, addFormats } from './openapi-formats';
import type { ApiRoute } from './route';

export const API_PREFIX = '/api/v1';

const rateHeaders = {
  'RateLimit-Limit': { description: 'Requests the key may make in the window.', schema: { type: 'integer' as const } },
  'RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer' as const } },
  'RateLimit-Reset': { description: 'Seconds until the window starts again.', schema: { type: 'integer' as const } },
  'RateLimit-Policy': { description: '`<limit>;w=<seconds>`', schema: { type: 'string' as const } },
};

const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ZProblem } } });

const PROBLEMS = {
  400: problem(
    'A bad input (`VALIDATION`, each field named in `fields`: a field holding bytes that are not UTF-8 too), or a body that is not JSON (`BAD_REQUEST`).',
  ),
  401: problem('No API key, or one that is unknown, expired or revoked (`UNAUTHENTICATED`).'),
  403: problem("The key's scopes do not allow it (`FORBIDDEN`)."),
  404: problem("Nothing of the key's hotel by that id (`NOT_FOUND`); another hotel's ids are never found."),
  429: { ...problem('Too many requests for the key (`TOO_MANY_ATTEMPTS`); `Retry-After` says when to try again.'), headers: rateHeaders },
  default: problem('Any other error of the catalogue: a lock that refused (502), the server busy (503) or at fault (500).'),
};
const WRITE_PROBLEMS = {
  409: problem('The state does not allow it (`CONFLICT`), the `Idempotency-Key` was used for another request, or a copy is still running.'),
  415: problem(
    'A body of another type than `application/json` in UTF-8 (`UNSUPPORTED_MEDIA_TYPE`); nothing is done. An empty body is no body, whatever its type.',
  ),
};

function operation(route: ApiRoute): ZodOpenApiOperationObject {
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: [route.description, route.permission ? `Scope: \`${route.permission}\`.` : 'Scope: any key of the hotel.'].filter(Boolean).join('\n\n'),
    ...(route.permission ? { 'x-scope': route.permission } : {}),
    requestParams: {
      ...(route.params ? { path: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(route.write
        ? {
            header: z.object({
              'Idempotency-Key': ZIdempotencyKey.meta({
                description: 'Required on every write: a replay within a day answers the first result, and a copy sent meanwhile waits for it.',
              }),
            }),
          }
        : {}),
    },
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses: {
      [route.status]: { description: 'OK', headers: rateHeaders, content: { [route.file ?? 'application/json']: { schema: route.response } } },
      ...PROBLEMS,
      ...(route.write ? WRITE_PROBLEMS : {}),
    },
  };
}

/** The OpenAPI 3.1 document of the JSON API, generated from the routes' zod schemas (zod-openapi). */
export function openApiDocument(routes: ApiRoute[], version: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const path = (paths[API_PREFIX + route.path] ??= {});
    path[route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete'] = operation(route);
  }
  const doc = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Hotel console JSON API',
        version,
        description:
          "Rooms, reservations and stays, their credentials on the locks and the doors' unlock records, for a property system or a channel manager. " +
          'Authenticate with an API key of the hotel (`Authorization: Bearer slk_...`, made on the API keys page): its scopes decide what it may do. ' +
          'Every write takes an `Idempotency-Key`; lists page by cursor; errors are RFC 9457 problem details with the catalogue code. Amounts are integers in the minor unit of the hotel currency; times are ISO 8601 instants.',
      },
      security: [{ apiKey: [] }],
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'slk_...', description: 'An API key of the hotel.' } } },
      paths,
    },
    { reused: 'ref' },
  );
  addFormats(doc);
  addExamples(doc);
  return doc;
}
