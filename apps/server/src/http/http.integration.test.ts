import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestContext, type TestContext } from '../test/harness';

describe('HTTP surface', () => {
  let ctx: TestContext;
  let dist: string;
  let web: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    ctx = await createTestContext();
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    web = await buildApp(ctx.deps, { webDistDir: dist });
  });
  afterAll(async () => {
    await web.close();
    await ctx.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers /healthz and /readyz', async () => {
    expect((await ctx.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await ctx.app.inject('/readyz')).json()).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
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

  it('refuses a body over the limit', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/trpc/auth.login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(ctx.config.bodyLimit) }) });
    expect(res.statusCode).toBe(413);
  });
});
