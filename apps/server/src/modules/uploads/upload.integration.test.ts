import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COOKIES, FACE_RULES, UPLOAD_TOKEN_TTL_SECONDS } from '@console/shared';
import { createSession } from '../auth/session.service';
import { createHotelWithStaff } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';
import { jpegPhoto, pngPhoto } from '../../test/photos';

/**
 * Face photos through the upload store: recognised by their bytes whatever the name or the
 * declared type says, 300 KB to 2 MB (TTLock's face photo sizes), JPG or PNG; legacy clients sign the upload with the token of
 * `/manage/oss/token`, the web console with its session cookie.
 */
let ctx: TestContext;
let legacy: ReturnType<typeof legacyClient>;

const PNG = () => pngPhoto();
const JPG = () => jpegPhoto();

function multipart(filename: string, bytes: Buffer, type: string, fields: Record<string, string> = {}) {
  const boundary = '----face-upload-boundary';
  const parts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const body = Buffer.concat([
    ...parts,
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(file: ReturnType<typeof multipart>, options: { purpose?: string; token?: string; cookie?: string; origin?: string; lang?: string } = {}) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/uploads${options.purpose ? `?purpose=${options.purpose}` : ''}`,
    headers: {
      'content-type': file.contentType,
      host: 'localhost:3000',
      language: options.lang ?? 'en',
      ...(options.origin ? { origin: options.origin } : {}),
      ...(options.token ? { 'x-upload-token': options.token } : {}),
      ...(options.cookie ? { cookie: `${COOKIES.session}=${options.cookie}`, origin: options.origin ?? 'http://localhost:3000' } : {}),
    },
    payload: file.body,
  });
  return { status: res.statusCode, body: res.json() as { url: string; previewUrl?: string; type: string; size: number; error: { message: string } } };
}

async function legacySession(accountId: number, hotelId: number) {
  return (await createSession(ctx.deps, { accountId, hotelId, kind: 'legacy', meta: testMeta() })).token;
}

async function uploadToken(sessionToken: string) {
  const res = await legacy.call<{
    token: string;
    host: string;
    field: string;
    expires_in: number;
    expire_time: string;
    max_size: number;
    face_max_size: number;
  }>('oss/token', {}, { token: sessionToken, language: 'en' });
  expect(res.errno).toBe(0);
  return res.data;
}

beforeAll(async () => {
  ctx = await createTestContext();
  legacy = legacyClient(ctx.app, ctx.config);
});
afterAll(() => ctx.close());

describe('face photo uploads', () => {
  it('gives a legacy client a short-lived token that signs uploads, in a form field or a header', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const session = await legacySession(h.staff.id, h.hotel.id);
    const token = await uploadToken(session);
    expect(token).toMatchObject({
      host: '/api/uploads',
      field: 'file',
      expires_in: UPLOAD_TOKEN_TTL_SECONDS,
      max_size: 5 * 1024 * 1024,
      face_max_size: FACE_RULES.imageMaxBytes,
    });
    expect(token.expire_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(token.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const keys = await ctx.deps.redis.keys(ctx.deps.key('upload-token', '*'));
    const ttls = await Promise.all(keys.map((k) => ctx.deps.redis.ttl(k)));
    expect(ttls.every((t) => t > 0 && t <= UPLOAD_TOKEN_TTL_SECONDS)).toBe(true);
    // Only the token's hash is kept.
    expect(keys.some((k) => k.includes(token.token))).toBe(false);

    const inField = await upload(multipart('face.png', PNG(), 'image/png', { token: token.token }), { purpose: 'face' });
    expect(inField.status).toBe(200);
    expect(inField.body.url).toMatch(new RegExp(`^/uploads/${h.hotel.id}/[0-9a-f-]{36}\\.png$`));
    // The path names the photo; the signed URL shows it (http/uploads.integration.test.ts).
    expect(inField.body.previewUrl).toMatch(new RegExp(`^/api/faces/upload/${h.hotel.id}/[0-9a-f-]{36}\\.png\\?exp=\\d+&sig=`));
    // No origin check for a token: a browser never sends one on its own.
    const inHeader = await upload(multipart('face.jpg', JPG(), 'image/jpeg'), { purpose: 'face', token: token.token, origin: 'https://elsewhere.example' });
    expect(inHeader).toMatchObject({ status: 200, body: { type: 'image/jpeg' } });
  });

  it('recognises a photo by its bytes: a PNG named .txt is a PNG, a text file named .png is refused', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const token = (await uploadToken(await legacySession(h.staff.id, h.hotel.id))).token;
    const renamed = await upload(multipart('notes.txt', PNG(), 'text/plain'), { purpose: 'face', token });
    expect(renamed).toMatchObject({ status: 200, body: { type: 'image/png' } });
    expect(renamed.body.url).toMatch(/\.png$/);
    const text = await upload(multipart('face.png', Buffer.from('just some text, not a picture at all'), 'image/png'), {
      purpose: 'face',
      token,
      lang: 'zh-CN',
    });
    expect(text).toMatchObject({ status: 400, body: { error: { message: '人脸照片仅支持 JPG 或 PNG 格式' } } });
    // A GIF is a picture a room may show, not a face photo.
    const gif = Buffer.concat([Buffer.from('GIF89a'), randomBytes(32)]);
    expect((await upload(multipart('face.gif', gif, 'image/gif'), { purpose: 'face', token })).body.error.message).toBe(
      'The face photo must be a JPG or PNG image',
    );
    expect((await upload(multipart('room.gif', gif, 'image/gif'), { purpose: 'picture', cookie: h.ownerToken })).status).toBe(200);
  });

  it('refuses a face photo under 300 KB or over 2 MB (what TTLock documents), and any file over 5 MB', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const token = (await uploadToken(await legacySession(h.staff.id, h.hotel.id))).token;
    const atLimit = pngPhoto(FACE_RULES.imageMaxBytes);
    expect((await upload(multipart('ok.png', atLimit, 'image/png'), { purpose: 'face', token })).status).toBe(200);
    const atMinimum = jpegPhoto(FACE_RULES.imageMinBytes);
    expect(await upload(multipart('ok.jpg', atMinimum, 'image/jpeg'), { purpose: 'face', token })).toMatchObject({
      status: 200,
      body: { type: 'image/jpeg', size: FACE_RULES.imageMinBytes },
    });
    for (const small of [pngPhoto(FACE_RULES.imageMinBytes - 1), jpegPhoto(FACE_RULES.imageMinBytes - 1), pngPhoto(1024)]) {
      expect(await upload(multipart('small.png', small, 'image/png'), { purpose: 'face', token })).toMatchObject({
        status: 400,
        body: { error: { message: 'The face photo must be at least 300 KB: upload a sharper photo' } },
      });
    }
    expect((await upload(multipart('small.png', pngPhoto(1024), 'image/png'), { purpose: 'face', token, lang: 'zh-CN' })).body.error.message).toBe(
      '人脸照片不能小于 300 KB，请上传更清晰的照片',
    );
    // A room picture has no minimum.
    expect((await upload(multipart('room.png', pngPhoto(1024), 'image/png'), { purpose: 'picture', cookie: h.ownerToken })).status).toBe(200);
    const over = pngPhoto(FACE_RULES.imageMaxBytes + 1);
    expect(await upload(multipart('big.png', over, 'image/png'), { purpose: 'face', token })).toMatchObject({
      status: 413,
      body: { error: { message: 'The face photo must not exceed 2 MB' } },
    });
    const huge = pngPhoto(5 * 1024 * 1024 + 10);
    expect((await upload(multipart('huge.png', huge, 'image/png'), { purpose: 'face', token })).status).toBe(413);
    // The web console's cookie path applies the same rules.
    expect((await upload(multipart('big.png', over, 'image/png'), { purpose: 'face', cookie: h.staffToken })).status).toBe(413);
    expect((await upload(multipart('face.txt', PNG(), 'text/plain'), { purpose: 'face', cookie: h.staffToken })).status).toBe(200);
  });

  it('refuses an unknown or dead token, a token whose session ended, a purpose the member may not upload for, and an unknown purpose', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const session = await legacySession(h.staff.id, h.hotel.id);
    const token = (await uploadToken(session)).token;
    expect(await upload(multipart('a.png', PNG(), 'image/png'), { purpose: 'face', token: 'no-such-token' })).toMatchObject({
      status: 401,
      body: { error: { message: 'The upload token is invalid or has expired. Request a new one.' } },
    });
    // Staff manage credentials, not rooms: a face photo yes, a room picture no.
    expect((await upload(multipart('a.png', PNG(), 'image/png'), { purpose: 'picture', token })).status).toBe(403);
    expect((await upload(multipart('a.png', PNG(), 'image/png'), { purpose: 'banner', token })).status).toBe(400);
    // Anyone may upload their own avatar (the personal centre, issue 9 §4).
    expect((await upload(multipart('a.png', PNG(), 'image/png'), { purpose: 'avatar', token })).status).toBe(200);
    // Without a token or a session: 401; a cookie from another site: 403.
    expect((await upload(multipart('a.png', PNG(), 'image/png'), { purpose: 'face' })).status).toBe(401);
    expect((await upload(multipart('a.png', PNG(), 'image/png'), { purpose: 'face', cookie: h.staffToken, origin: 'https://evil.example' })).status).toBe(403);
    // The token dies with its session.
    expect((await legacy.call('logout', {}, { token: session })).errno).toBe(0);
    expect((await upload(multipart('a.png', PNG(), 'image/png'), { purpose: 'face', token })).status).toBe(401);
    // oss/token needs a session.
    expect((await legacy.call('oss/token', {}, { language: 'en' })).errno).toBe(100003);
  });

  // The defect guarded is a close that never ends (a connection held for ever); the limit only ends
  // such a hang. It covers a whole server made and two 4 MiB uploads, which took over 20 s on a loaded
  // machine (a full integration run beside a browser run, 2026-11-28) without anything being wrong.
  it('over a real socket, reads away the file of a refused upload, so its connection and the server can close', { timeout: 90_000 }, async () => {
    // A refused request whose file was never read used to hold its connection, so the server could not close.
    const own = await createTestContext();
    const url = await own.app.listen({ port: 0, host: '127.0.0.1' });
    for (const fields of [{}, { token: 'no-such-token' }]) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', new Blob([new Uint8Array(4 * 1024 * 1024)]), 'face.png');
      const res = await fetch(`${url}/api/uploads?purpose=face`, { method: 'POST', body: form });
      expect(res.status).toBe(401);
      await res.text();
    }
    await own.close();
  });
});
