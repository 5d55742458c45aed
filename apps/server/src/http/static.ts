import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pageHtml, readPagePreloads } from './page-preloads';

const API_PREFIXES = ['/trpc', '/manage', '/auth', '/linQuan', '/healthz', '/readyz', '/api', '/uploads'];

/**
 * Serves the built web console with an SPA fallback: any GET for a page that is not a file
 * gets index.html, and the router shows the page (or /404). Hashed assets are cached for a year,
 * and sent brotli- or gzip-compressed from the copies the build wrote beside them. Anything else
 * not found is answered by `notFound` (the product's error).
 */
export async function registerWebApp(app: FastifyInstance, distDir: string, notFound: (req: FastifyRequest, reply: FastifyReply) => unknown) {
  const index = path.join(distDir, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn(`the web console is not built (${index} is missing): run \`pnpm build\``);
    app.setNotFoundHandler(notFound);
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    // `<file>.br` and `<file>.gz` are written beside the files at build time (apps/web/scripts/
    // precompress.ts): the one the request accepts is sent, with Content-Encoding and
    // `Vary: accept-encoding`; the file as it is otherwise (docs/decisions/026-precompressed-assets.md).
    preCompressed: true,
    // The copies are not pages of their own (a route each for nothing).
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders(res, filePath) {
      const isHashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const html = fs.readFileSync(index, 'utf8');
  // The page names what it will load first (page-preloads.ts): its language's texts, its route's chunks.
  const preloads = readPagePreloads(distDir);
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`));
    if (req.method === 'GET' && !isApi && !path.extname(url)) {
      let body = html;
      if (preloads) {
        body = pageHtml(html, preloads, { path: url, cookies: req.cookies ?? {}, acceptLanguage: req.headers['accept-language'] });
        reply.header('vary', 'cookie, accept-language');
      }
      return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(body);
    }
    return notFound(req, reply);
  });
}
