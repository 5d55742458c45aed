import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodError } from 'zod';
import { API_KEY_PREFIX, LANGUAGES, ZIdempotencyKey, resolveLanguageHeader } from '@console/shared';
import type { AuthedContext, Deps } from '../../context';
import { AppError } from '../../errors';
import { bearerToken } from '../status';
import { resolveApiKey } from '../../modules/api-keys/api-key.service';
import { requestMeta } from '../meta';
import { assertUtf8Query } from '../utf8';
import { readApiBodies } from './body';
import { fingerprintOf, withIdempotency, type Replayable } from './idempotency';
import { API_PREFIX, openApiDocument } from './openapi';
import { sendProblem } from './problem';
import { contentDisposition } from '../exports';
import type { SessionFile } from '../session-file';
import { consumeApiRate } from './rate-limit';
import type { ApiRoute } from './route';
import { API_ROUTES } from './routes';

const API_VERSION = '1.0.0';

/** `/rooms/{roomId}` -> `/rooms/:roomId` */
const fastifyPath = (openApiPath: string) => API_PREFIX + openApiPath.replace(/\{(\w+)\}/g, ':$1');

function parsed<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: ZodError } }, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw AppError.validation(result.error);
  return result.data;
}

function idempotencyKeyOf(req: FastifyRequest): string {
  const header = req.headers['idempotency-key'];
  const result = ZIdempotencyKey.safeParse(typeof header === 'string' ? header : undefined);
  if (!result.success)
    throw new AppError('VALIDATION', { messageKey: 'validation.requestIdRequired', fields: { 'Idempotency-Key': 'validation.requestIdRequired' } });
  return result.data;
}

/** Fastify's own refusal of a request before any route (a path that is not UTF-8), under /api/v1: a problem like any other. */
export function isJsonApiRequest(req: FastifyRequest): boolean {
  return req.url === API_PREFIX || req.url.startsWith(`${API_PREFIX}/`);
}
export function sendFrameworkProblem(deps: Deps, req: FastifyRequest, reply: FastifyReply, error: Error) {
  return sendProblem(deps, req, reply, requestMeta(req, undefined, 'api'), new AppError('BAD_REQUEST', { cause: error }));
}

/** One operation: the key, its rate, the input read by the route's schemas, the service, the answer checked against its schema. */
async function handle(deps: Deps, route: ApiRoute, req: FastifyRequest, reply: FastifyReply) {
  const meta = requestMeta(req, undefined, 'api');
  try {
    const token = bearerToken(req);
    // Only API keys: a console session is never a bearer of the JSON API.
    if (!token?.startsWith(API_KEY_PREFIX)) throw new AppError('UNAUTHENTICATED');
    const actor = await resolveApiKey(deps, token);
    await consumeApiRate(deps, reply, actor.apiKeyId!);
    const ctx: AuthedContext = { deps, meta, actor };
    // No text the product does not accept (decision 025), in any part of the request.
    assertUtf8Query(req.url);
    for (const part of [req.params, req.query, req.body]) AppError.assertAcceptedText(part);
    const input = {
      params: route.params ? parsed(route.params, req.params) : undefined,
      query: route.query ? parsed(route.query, req.query) : undefined,
      body: route.body ? parsed(route.body, req.body ?? {}) : undefined,
      idempotencyKey: route.write ? idempotencyKeyOf(req) : '',
    };
    if (route.file) {
      const file = (await route.handle(ctx, input)) as SessionFile;
      return reply
        .code(200)
        .type(file.type)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    }
    const run = async (): Promise<Replayable> => {
      const result = await route.handle(ctx, input);
      // The answer is what the document says, or the server's fault (as tRPC's output schemas).
      const checked = route.response.safeParse(result);
      if (!checked.success) throw new AppError('INTERNAL', { cause: checked.error });
      return { status: route.status, body: JSON.stringify(checked.data) };
    };
    const answer = route.write
      ? await withIdempotency(deps, actor.apiKeyId!, input.idempotencyKey, fingerprintOf(req.method, req.url, req.body), run)
      : { ...(await run()), replayed: false };
    if (answer.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(answer.status).type('application/json; charset=utf-8').header('cache-control', 'no-store').send(answer.body);
  } catch (error) {
    return sendProblem(deps, req, reply, meta, error);
  }
}

const require = createRequire(import.meta.url);

/** Text of the page's own HTML (the title, the header): escaped. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The reference page: Swagger UI, bundled (swagger-ui-dist, no CDN: an install may be offline),
 * reading /api/v1/openapi.json. Its title and the header above the reference are ours, in the
 * reader's language (`?lang=`, as the API keys page links to it, or Accept-Language) and direction;
 * the reference itself is in English, like the names it documents.
 */
function docsHtml(deps: Deps, req: FastifyRequest): string {
  const asked = (req.query as { lang?: unknown } | undefined)?.lang;
  const lang = (typeof asked === 'string' ? resolveLanguageHeader(asked) : undefined) ?? requestMeta(req).lang;
  const dir = LANGUAGES.find((l) => l.header === lang)?.dir ?? 'ltr';
  const t = (key: string) => escapeHtml(deps.i18n.t(lang, key));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title lang="${lang}">${t('apiKeys.reference')}</title>
<link rel="stylesheet" href="${API_PREFIX}/docs/swagger-ui.css">
<link rel="stylesheet" href="${API_PREFIX}/docs/docs.css">
<link rel="icon" type="image/png" href="${API_PREFIX}/docs/favicon-32x32.png">
</head>
<body>
<header class="console-docs-header" lang="${lang}" dir="${dir}" data-testid="api-docs-header">
<a href="${API_KEYS_PAGE}" data-testid="api-docs-back">${t('apiKeys.referenceBack')}</a>
<p>${t('apiKeys.referenceNote')}</p>
</header>
<div id="swagger-ui" aria-busy="true"></div>
<script src="${API_PREFIX}/docs/swagger-ui-bundle.js"></script>
<script src="${API_PREFIX}/docs/init.js"></script>
</body>
</html>
`;
}
/** The console's API keys page (apps/web/src/routes/_auth/thirdPartyAuthorization), where the keys are made. */
const API_KEYS_PAGE = '/thirdPartyAuthorization/thirdPartyAuthorization';
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '${API_PREFIX}/openapi.json', dom_id: '#swagger-ui', deepLinking: false,
  // Busy until the document is drawn (its headings and main landmark are Swagger UI's).
  onComplete: () => document.getElementById('swagger-ui').removeAttribute('aria-busy'), defaultModelsExpandDepth: -1, syntaxHighlight: { activated: false } });
// Code samples scroll sideways: reachable from the keyboard too.
new MutationObserver(() => {
  for (const el of document.querySelectorAll('.highlight-code > .microlight:not([tabindex])')) el.setAttribute('tabindex', '0');
  // The document's title and description, a region of their own (our header is the page's banner, Swagger UI's operations its main);
  // the areas, headings under the title.
  for (const el of document.querySelectorAll('.information-container:not([role])')) {
    el.setAttribute('role', 'region');
    el.setAttribute('aria-label', el.querySelector('.title')?.firstChild?.textContent?.trim() || 'API');
  }
  for (const el of document.querySelectorAll('h3.opblock-tag:not([aria-level])')) el.setAttribute('aria-level', '2');
  for (const el of document.querySelectorAll('.opblock h4:not([aria-level])')) el.setAttribute('aria-level', '3');
}).observe(document.getElementById('swagger-ui'), { childList: true, subtree: true });
`;
/** Swagger UI's colours that are too faint to read (WCAG AA contrast). */
const DOCS_CSS = `.console-docs-header { max-width: 1460px; margin: 0 auto; padding: 16px 20px 0; font-family: sans-serif; color: #111827; }
.console-docs-header a { color: #1d4ed8; }
.console-docs-header p { margin: 8px 0 0; }
.swagger-ui .info .title small, .swagger-ui .info .title small pre { background: #4b5563; }
.swagger-ui .info .title small.version-stamp, .swagger-ui .info .title small.version-stamp pre { background: #3f6212; }
.swagger-ui .info .url, .swagger-ui .info a { color: #1d4ed8; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d4ed8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #047857; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a3412; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f766e; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b91c1c; }
.swagger-ui .btn.authorize { color: #047857; border-color: #047857; }
.swagger-ui .btn.authorize svg { fill: #047857; }
.swagger-ui .parameter__in, .swagger-ui .parameter__deprecated { color: #4b5563; }
.swagger-ui .json-schema-2020-12__constraint { color: #111827; background-color: #e5e7eb; }
`;
const DOCS_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * The JSON API (issue 29 §1, docs/api.md, decision 046): `/api/v1/...` resources over the same
 * services as tRPC, authenticated by the hotel's API keys, rate-limited per key, every write
 * idempotent by `Idempotency-Key`, errors as problem details; its OpenAPI 3.1 document at
 * `/api/v1/openapi.json`, generated from the routes' zod schemas, and a reference at `/api/v1/docs`.
 */
export async function registerJsonApi(app: FastifyInstance, deps: Deps, routes: ApiRoute[] = API_ROUTES) {
  const document = JSON.stringify(openApiDocument(routes, API_VERSION));
  const uiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  await app.register(async (scope) => {
    readApiBodies(scope);
    // Fastify's own failures (a body that is not JSON, too large, of another type) as problems too.
    scope.setErrorHandler((error, req, reply) => {
      const code = (error as { code?: string }).code;
      const status = (error as { statusCode?: number }).statusCode;
      const mapped =
        code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? new AppError('PAYLOAD_TOO_LARGE', { cause: error })
          : code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415
            ? new AppError('UNSUPPORTED_MEDIA_TYPE', { cause: error })
            : code?.startsWith('FST_ERR_CTP') || status === 400
              ? new AppError('BAD_REQUEST', { cause: error })
              : error;
      return sendProblem(deps, req, reply, requestMeta(req, undefined, 'api'), mapped);
    });

    scope.get(`${API_PREFIX}/openapi.json`, async (_req, reply) =>
      reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(document),
    );
    scope.get(`${API_PREFIX}/docs`, async (req, reply) => reply.type('text/html; charset=utf-8').header('vary', 'accept-language').send(docsHtml(deps, req)));
    scope.get(`${API_PREFIX}/docs/init.js`, async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(DOCS_INIT));
    scope.get(`${API_PREFIX}/docs/docs.css`, async (_req, reply) => reply.type('text/css; charset=utf-8').send(DOCS_CSS));
    scope.get<{ Params: { file: string } }>(`${API_PREFIX}/docs/:file`, async (req, reply) => {
      const type = DOCS_ASSETS[req.params.file];
      if (!type) return sendProblem(deps, req, reply, requestMeta(req, undefined, 'api'), new AppError('NOT_FOUND'));
      return reply
        .type(type)
        .header('cache-control', 'public, max-age=86400')
        .send(await readFile(path.join(uiDir, req.params.file)));
    });

    for (const route of routes) {
      scope.route({ method: route.method, url: fastifyPath(route.path), handler: (req, reply) => handle(deps, route, req, reply) });
    }
    scope.all(`${API_PREFIX}/*`, async (req, reply) => sendProblem(deps, req, reply, requestMeta(req, undefined, 'api'), new AppError('UNKNOWN_ACTION')));
  });
}
