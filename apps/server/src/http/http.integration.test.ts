import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestContext, type TestContext } from '../test/harness';

/** 60 kB of JavaScript-like text, compressible as a bundle is. */
const BUNDLE = Buffer.from(Array.from({ length: 2000 }, (_, i) => `export const value${i} = ${i} * 2;\n`).join(''));

describe('HTTP surface', () => {
  let ctx: TestContext;
  let dist: string;
  let web: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    ctx = await createTestContext();
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html lang="zh-CN" dir="ltr"><head><title>x</title></head><body><div id="root"></div></body></html>',
    );
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    // A bundle as the build leaves it: the file, and its brotli and gzip copies beside it
    // (apps/web/scripts/precompress.ts).
    fs.writeFileSync(path.join(dist, 'assets', 'index-XyZ789.js'), BUNDLE);
    fs.writeFileSync(path.join(dist, 'assets', 'index-XyZ789.js.br'), zlib.brotliCompressSync(BUNDLE));
    fs.writeFileSync(path.join(dist, 'assets', 'index-XyZ789.js.gz'), zlib.gzipSync(BUNDLE));
    // What the build says each key page loads first (apps/web/scripts/page-chunks.ts).
    fs.mkdirSync(path.join(dist, '.vite'));
    fs.writeFileSync(
      path.join(dist, '.vite', 'page-preloads.json'),
      JSON.stringify({
        pages: {
          'sign-in': { paths: ['/login'], signedIn: false, files: ['assets/login-1.js'] },
          board: { paths: ['/room'], signedIn: true, files: ['assets/board-2.js'] },
        },
        locales: { en: 'assets/en-3.js', 'zh-CN': 'assets/zh-CN-4.js' },
      }),
    );
    web = await buildApp(ctx.deps, { webDistDir: dist });
  });
  afterAll(async () => {
    await web.close();
    await ctx.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers /healthz and /readyz', async () => {
    expect((await ctx.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await ctx.app.inject('/readyz')).json()).toEqual({ status: 'ok', database: 'ok', redis: 'ok', files: 'ok' });
  });

  it('sends security headers: CSP with frame-ancestors none, nosniff, a referrer policy, a request id', async () => {
    const res = await web.inject('/customer/customer');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain('http://127.0.0.1:13570');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the web console with an SPA fallback and long-cached hashed assets', async () => {
    const page = await web.inject('/room/thetouristsDetails?id=3');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await web.inject('/assets/app-abc123.js');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await web.inject('/assets/missing.js')).statusCode).toBe(404);
    expect((await web.inject('/trpc/nothing.here')).statusCode).toBe(404);
  });

  it('names what a key page loads first, as links the browser fetches alongside the entry (issue 18 §4)', async () => {
    const links = (body: string) => [...body.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
    const login = await web.inject({ url: '/login?redirect=%2Froom', headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(login.statusCode).toBe(200);
    expect(links(login.body)).toEqual(['/assets/en-3.js', '/assets/login-1.js']);
    expect(String(login.headers.vary)).toMatch(/cookie/i);
    const board = await web.inject({ url: '/room', headers: { cookie: 'smart_lock_userinfo=x; language=zh-CN', 'accept-language': 'en' } });
    expect(links(board.body)).toEqual(['/assets/zh-CN-4.js', '/assets/board-2.js']);
    // Signed out, the board's address ends on the sign-in page.
    expect(links((await web.inject({ url: '/room', headers: { 'accept-language': 'en' } })).body)).toEqual(['/assets/en-3.js', '/assets/login-1.js']);
    // The build's own index.html, unchanged, is what a request for the file gets.
    expect((await web.inject('/index.html')).body).not.toContain('modulepreload');
  });

  it("answers the sign-in page's early request for its graphic code as apps/web/public/sign-in-early.js reads it", async () => {
    // tRPC's own request for auth.captcha without batching: what the script sends before the console's scripts have run.
    const res = await web.inject({ method: 'POST', url: '/trpc/auth.captcha', headers: { 'content-type': 'application/json', language: 'en' }, payload: '{}' });
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { result?: { data?: { id?: unknown; svg?: unknown } } }).result?.data;
    expect(typeof data?.id).toBe('string');
    expect(String(data?.svg)).toContain('<svg');
  });

  it.each([
    { accept: 'gzip, deflate, br, zstd', encoding: 'br' },
    { accept: 'br', encoding: 'br' },
    { accept: 'gzip', encoding: 'gzip' },
    { accept: 'gzip, deflate', encoding: 'gzip' },
    { accept: 'identity', encoding: undefined },
    { accept: undefined, encoding: undefined },
  ])('sends an asset precompressed as the request accepts ($accept -> $encoding), the same bytes once decompressed', async ({ accept, encoding }) => {
    const res = await web.inject({ url: '/assets/index-XyZ789.js', headers: accept === undefined ? {} : { 'accept-encoding': accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const body = res.rawPayload;
    const decoded = encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
    expect(decoded.equals(BUNDLE)).toBe(true);
    if (encoding) expect(body.length).toBeLessThan(BUNDLE.length / 4);
  });

  it('compresses tRPC answers over 1 kB, and leaves small ones and the SPA fallback as they are', async () => {
    const login = await web.inject({ url: '/login', headers: { 'accept-encoding': 'br' } });
    expect(login.headers['content-encoding']).toBeUndefined();
    // A graphic code: its SVG makes an answer of a few kB.
    const captcha = (acceptEncoding?: string) =>
      web.inject({
        method: 'POST',
        url: '/trpc/auth.captcha',
        headers: { 'content-type': 'application/json', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
        payload: '{}',
      });
    const res = await captcha('gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    const json = JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString('utf8')) as { result: { data: { id: string; svg: string } } };
    expect(json.result.data.svg).toContain('<svg');
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(JSON.stringify(json)));
    const gz = await captcha('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect((JSON.parse(zlib.gunzipSync(gz.rawPayload).toString('utf8')) as typeof json).result.data.svg).toContain('<svg');
    const plain = await captcha();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((plain.json() as typeof json).result.data.svg).toContain('<svg');
  });

  it('refuses a body over the limit', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(ctx.config.bodyLimit) }),
    });
    expect(res.statusCode).toBe(413);
  });

  it("answers a client's mistakes on /trpc as client errors with their own code and a translated message", async () => {
    const cases = [
      {
        label: 'a procedure that does not exist',
        method: 'POST' as const,
        url: '/trpc/room.nothingHere',
        body: '{}',
        status: 404,
        code: 'UNKNOWN_ACTION',
        errno: 100014,
      },
      { label: 'a query that does not exist', method: 'GET' as const, url: '/trpc/nothing', status: 404, code: 'UNKNOWN_ACTION', errno: 100014 },
      {
        label: 'a body that is not JSON',
        method: 'POST' as const,
        url: '/trpc/auth.login',
        body: '{not json',
        status: 400,
        code: 'BAD_REQUEST',
        errno: 100020,
      },
      { label: 'an input that is not JSON', method: 'GET' as const, url: '/trpc/room.get?input=%7Bnope', status: 400, code: 'BAD_REQUEST', errno: 100020 },
      { label: 'a query sent as POST', method: 'POST' as const, url: '/trpc/auth.me', body: '{}', status: 405, code: 'METHOD_NOT_ALLOWED', errno: 100021 },
      { label: 'a mutation sent as GET', method: 'GET' as const, url: '/trpc/auth.login', status: 405, code: 'METHOD_NOT_ALLOWED', errno: 100021 },
    ];
    for (const c of cases) {
      for (const language of ['en', 'zh-CN']) {
        const res = await ctx.app.inject({
          method: c.method,
          url: c.url,
          headers: { language, 'content-type': 'application/json', host: 'localhost:3000', origin: 'http://localhost:3000' },
          payload: c.body,
        });
        const body = res.json() as { error: { message: string; data: { httpStatus: number; app?: { code: string; errno: number; message: string } } } };
        expect({ label: c.label, status: res.statusCode, code: body.error.data.app?.code, errno: body.error.data.app?.errno }).toEqual({
          label: c.label,
          status: c.status,
          code: c.code,
          errno: c.errno,
        });
        expect(body.error.message, c.label).toBe(body.error.data.app?.message);
        expect(body.error.message, c.label).toBe(ctx.deps.i18n.t(language as 'en', `errors.${c.code}`));
        expect(body.error.message, c.label).not.toMatch(/Something went wrong|服务器/);
      }
    }
  });
});
