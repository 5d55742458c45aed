import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COOKIES } from '@console/shared';
import { createTestContext, type TestContext } from '../test/harness';
import { createHotelWithStaff } from '../test/factories';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

function multipart(filename: string, bytes: Buffer, type = 'image/png') {
  const boundary = '----console-test-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('picture uploads', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const upload = (token: string | undefined, file: ReturnType<typeof multipart>, lang = 'en') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { 'content-type': file.contentType, origin: 'http://localhost:3000', host: 'localhost:3000', language: lang, ...(token ? { cookie: `${COOKIES.session}=${token}` } : {}) },
      payload: file.body,
    });

  it('stores a picture recognised by its bytes, and serves it back', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const res = await upload(h.ownerToken, multipart('room.gif', PNG, 'image/gif'));
    expect(res.statusCode).toBe(200);
    const { url, type } = res.json() as { url: string; type: string };
    expect(type).toBe('image/png');
    expect(url).toMatch(new RegExp(`^/uploads/${h.hotel.id}/[0-9a-f-]{36}\\.png$`));
    const back = await ctx.app.inject(url);
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(PNG)).toBe(true);
    expect(back.headers['x-content-type-options']).toBe('nosniff');
    // Larger than the 1 MB body limit of the API, within the 5 MB of pictures.
    const photo = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]);
    expect((await upload(h.ownerToken, multipart('big.png', photo))).statusCode).toBe(200);
  });

  it('refuses what is not a picture, a request without a session, and a member who does not manage rooms', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const html = await upload(h.ownerToken, multipart('x.png', Buffer.from('<html><script>alert(1)</script></html>')), 'zh-CN');
    expect(html.statusCode).toBe(400);
    expect(html.json().error.message).toBe('图片格式不支持，请上传 PNG、JPG、WebP 或 GIF 图片');
    expect((await upload(undefined, multipart('a.png', PNG))).statusCode).toBe(401);
    expect((await upload(h.staffToken, multipart('a.png', PNG))).statusCode).toBe(403);
  });

  it('refuses a picture over 5 MB', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 10)]);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/uploads', headers: { 'content-type': multipart('b.png', big).contentType, origin: 'http://localhost:3000', host: 'localhost:3000', cookie: `${COOKIES.session}=${h.ownerToken}` }, payload: multipart('b.png', big).body });
    expect([413]).toContain(res.statusCode);
  });
});
