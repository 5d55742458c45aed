import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COOKIES, FACE_PHOTO_URL_TTL_SECONDS } from '@console/shared';
import { storedKeys } from '../infra/uploads';
import { createFace, deleteFace } from '../modules/credentials/face.service';
import { facePhotoUrl, uploadedFacePhotoUrl } from '../modules/uploads/face-photos';
import { actorContext, createTestContext, type TestContext } from '../test/harness';
import { createHotelWithStaff } from '../test/factories';
import { jpegPhoto, pngPhoto } from '../test/photos';
import { trpcClient } from '../test/trpc-client';

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

  const upload = (token: string | undefined, file: ReturnType<typeof multipart>, lang = 'en', purpose = 'picture') =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/uploads?purpose=${purpose}`,
      headers: {
        'content-type': file.contentType,
        origin: 'http://localhost:3000',
        host: 'localhost:3000',
        language: lang,
        ...(token ? { cookie: `${COOKIES.session}=${token}` } : {}),
      },
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
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        'content-type': multipart('b.png', big).contentType,
        origin: 'http://localhost:3000',
        host: 'localhost:3000',
        cookie: `${COOKIES.session}=${h.ownerToken}`,
      },
      payload: multipart('b.png', big).body,
    });
    expect([413]).toContain(res.statusCode);
  });
});

describe('face photos: never public, shown through short-lived signed URLs (decision 015)', () => {
  let ctx: TestContext;
  let api: ReturnType<typeof trpcClient>;
  beforeAll(async () => {
    ctx = await createTestContext({ locks: null });
    api = trpcClient(ctx.app);
  });
  afterAll(() => ctx.close());

  const upload = (token: string, bytes: Buffer, purpose: 'face' | 'picture') => {
    const file = multipart(`photo.${bytes[0] === 0xff ? 'jpg' : 'png'}`, bytes);
    return ctx.app.inject({
      method: 'POST',
      url: `/api/uploads?purpose=${purpose}`,
      headers: { 'content-type': file.contentType, origin: 'http://localhost:3000', host: 'localhost:3000', cookie: `${COOKIES.session}=${token}` },
      payload: file.body,
    });
  };
  const get = (url: string) => ctx.app.inject({ method: 'GET', url });
  /** The same URL with its signature changed in one character. */
  const tampered = (url: string) => url.replace(/sig=(.)/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
  const expectPhoto = async (url: string, bytes: Buffer, type: string) => {
    const res = await get(url);
    expect(res.statusCode, url).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(String(res.headers['cache-control']))?.[1]);
    // The rest of the URL's validity: 10 to 15 minutes when just signed.
    expect(maxAge).toBeGreaterThanOrEqual(FACE_PHOTO_URL_TTL_SECONDS - 5);
    expect(maxAge).toBeLessThanOrEqual(FACE_PHOTO_URL_TTL_SECONDS + 300);
  };

  it('stores a face photo apart: its path is not served, its signed preview URL is, for a while; room pictures stay public', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const other = await createHotelWithStaff(ctx.deps);
    const photo = pngPhoto();
    const res = await upload(h.staffToken, photo, 'face');
    expect(res.statusCode).toBe(200);
    const { url, previewUrl } = res.json() as { url: string; previewUrl: string };
    expect(url).toMatch(new RegExp(`^/uploads/${h.hotel.id}/[0-9a-f-]{36}\\.png$`));
    expect(previewUrl).toMatch(new RegExp(`^/api/faces/upload/${h.hotel.id}/[0-9a-f-]{36}\\.png\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
    // The path names the photo, it does not show it; nor does its file in the private area.
    expect((await get(url)).statusCode).toBe(404);
    expect((await get(`/uploads/faces/${h.hotel.id}/${path.basename(url)}`)).statusCode).toBe(404);
    expect(fs.existsSync(path.join(path.resolve(ctx.config.uploadDir), storedKeys(h.hotel.id, url)!.face))).toBe(true);
    await expectPhoto(previewUrl, photo, 'image/png');
    // Altered, moved to another hotel, or expired: not found.
    expect((await get(tampered(previewUrl))).statusCode).toBe(404);
    expect((await get(previewUrl.replace(`/upload/${h.hotel.id}/`, `/upload/${other.hotel.id}/`))).statusCode).toBe(404);
    expect((await get(previewUrl.split('?')[0]!)).statusCode).toBe(404);
    expect((await get(uploadedFacePhotoUrl(ctx.deps, h.hotel.id, url, Date.now() - (FACE_PHOTO_URL_TTL_SECONDS + 300) * 1000)!)).statusCode).toBe(404);
    // A room picture is public, as before.
    const picture = pngPhoto(2048);
    const room = await upload(h.ownerToken, picture, 'picture');
    expect(room.json()).not.toHaveProperty('previewUrl');
    const served = await get((room.json() as { url: string }).url);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(picture)).toBe(true);
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("shows a face's photo only by the signed URL of its DTO: not altered, not expired, of that hotel's face, while the face exists", async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const b = await createHotelWithStaff(ctx.deps);
    const staff = await actorContext(ctx.deps, h.staffToken);
    const photo = jpegPhoto();
    const { url } = (await upload(h.staffToken, photo, 'face')).json() as { url: string };
    const created = await api.mutation('face.create', { faceId: `P-${randomUUID().slice(0, 8)}`, note: 'Lin Wei', imageUrl: url }, { token: h.staffToken });
    const face = created.data!;
    expect(face.imageUrl).toMatch(new RegExp(`^/api/faces/photo/${h.hotel.id}/${face.id}\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
    await expectPhoto(face.imageUrl, photo, 'image/jpeg');
    // The list and the face itself carry signed URLs too; the stored path is never handed out.
    const listed = (await api.query('face.list', { page: 1, pageSize: 20 }, { token: h.staffToken })).data!.items;
    expect(listed.map((f) => f.imageUrl)).toEqual([face.imageUrl]);
    expect((await api.query('face.get', { id: face.id }, { token: h.staffToken })).data!.imageUrl).toBe(face.imageUrl);
    expect(JSON.stringify(listed)).not.toContain(path.basename(url));

    const otherPhoto = pngPhoto();
    const { url: otherUrl } = (await upload(b.staffToken, otherPhoto, 'face')).json() as { url: string };
    const bFace = (await api.mutation('face.create', { faceId: 'B-1', note: 'x', imageUrl: otherUrl }, { token: b.staffToken })).data!;
    const notFound = [
      tampered(face.imageUrl),
      face.imageUrl.replace(/&sig=.*$/, ''),
      face.imageUrl.replace(/exp=\d+/, (m) => `exp=${Number(m.slice(4)) + 300}`),
      // A's signature on B's face, on B's hotel; or signed for A with the id of B's face.
      face.imageUrl.replace(`/photo/${h.hotel.id}/${face.id}`, `/photo/${h.hotel.id}/${bFace.id}`),
      face.imageUrl.replace(`/photo/${h.hotel.id}/`, `/photo/${b.hotel.id}/`),
      facePhotoUrl(ctx.deps, h.hotel.id, bFace.id),
      // Expired.
      facePhotoUrl(ctx.deps, h.hotel.id, face.id, Date.now() - (FACE_PHOTO_URL_TTL_SECONDS + 300) * 1000),
      `/api/faces/photo/${h.hotel.id}/${face.id}?exp=9999999999&sig=${'A'.repeat(43)}`,
    ];
    for (const bad of notFound) expect((await get(bad)).statusCode, bad).toBe(404);
    await expectPhoto(bFace.imageUrl, otherPhoto, 'image/png');

    // Deleted: its URL, still within its time, shows nothing.
    await deleteFace(staff, { id: face.id });
    expect((await get(face.imageUrl)).statusCode).toBe(404);
  });

  it('makes a photo private when a face is made of it, also a room picture, and moves the photos of faces stored before decision 015 at start', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const staff = await actorContext(ctx.deps, h.staffToken);
    const dir = path.resolve(ctx.config.uploadDir);
    // A photo uploaded as a room picture (public), then made a face: no longer public.
    const photo = pngPhoto();
    const { url } = (await upload(h.ownerToken, photo, 'picture')).json() as { url: string };
    expect((await get(url)).statusCode).toBe(200);
    const face = await createFace(staff, { faceId: 'R-1', note: 'From a room picture', imageUrl: url });
    expect((await get(url)).statusCode).toBe(404);
    await expectPhoto(face.imageUrl, photo, 'image/png');

    // A face photo left in the public area by an earlier version: public until the server starts.
    const old = pngPhoto();
    const oldPath = `/uploads/${h.hotel.id}/${randomUUID()}.png`;
    const keys = storedKeys(h.hotel.id, oldPath)!;
    const files = { public: path.join(dir, keys.public), face: path.join(dir, keys.face) };
    fs.mkdirSync(path.dirname(files.public), { recursive: true });
    fs.writeFileSync(files.public, old);
    const oldFace = await ctx.deps.prisma.face.create({
      data: { hotelId: h.hotel.id, faceId: 'OLD-1', note: 'Stored before', imageUrl: oldPath, imageSha256: createHash('sha256').update(old).digest('hex') },
    });
    expect((await get(oldPath)).statusCode).toBe(200);
    const restarted = await createTestContext({ locks: null });
    try {
      expect((await restarted.app.inject(oldPath)).statusCode).toBe(404);
      expect(fs.existsSync(files.public)).toBe(false);
      expect(fs.readFileSync(files.face).equals(old)).toBe(true);
      const signed = await restarted.app.inject(facePhotoUrl(restarted.deps, h.hotel.id, oldFace.id));
      expect(signed.statusCode).toBe(200);
      expect(signed.rawPayload.equals(old)).toBe(true);
    } finally {
      await restarted.close();
    }
  });
});
