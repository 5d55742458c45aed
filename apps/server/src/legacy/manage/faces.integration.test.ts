import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../modules/auth/session.service';
import { createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { insertKeptLock } from '../../test/lock-factories';
import { legacyClient } from '../../test/legacy-client';
import { pngPhoto } from '../../test/photos';

/**
 * The face actions of the legacy protocol, driven as an old console does (crypto-js envelope,
 * X-Token): `oss/token`, then the photo to `/api/uploads?purpose=face`, then `user/*` for the face
 * database and `lock/*` for authorisations. No lock cloud here: authorisations stay `pending`
 * (face.integration.test.ts carries them to the simulator).
 */
let ctx: TestContext;
let legacy: ReturnType<typeof legacyClient>;

interface LegacyFace {
  id: number;
  face_id: string;
  note: string;
  image: string;
  manage_id: number | null;
  customer_id: number | null;
  empower_count: number;
  create_time: string;
  update_time: string;
}
interface LegacyEmpower {
  id: number;
  face_img_id: number;
  face_id: string;
  face_note: string;
  image: string;
  room_id: number;
  room_name: string;
  lock_id: string | null;
  stay_id: number | null;
  note: string;
  start_time: string;
  end_time: string | null;
  permanent: number;
  expired: number;
  state: string;
  state_text: string;
  error: string | null;
  error_text: string | null;
  attempts: number;
  revoke_reason: string | null;
  revoke_reason_text: string | null;
  create_time: string;
  delivered_time: string | null;
  removed_time: string | null;
}
interface Page<T> {
  list: T[];
  total: number;
  page: number;
  limit: number;
}

const PNG = () => pngPhoto();

/** The face's photo as the `image` of an answer shows it: a signed URL of that face (decision 015). */
const signedImage = (hotelId: number, faceId: number) => new RegExp(`^/api/faces/photo/${hotelId}/${faceId}\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`);
const fetchImage = async (url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url });
  return res.statusCode === 200 ? res.rawPayload : res.statusCode;
};

beforeAll(async () => {
  ctx = await createTestContext();
  legacy = legacyClient(ctx.app, ctx.config, { language: 'en' });
});
afterAll(() => ctx.close());

async function hotel() {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['L101', 'L102']);
  const lockId = `7${Date.now() % 1e9}${Math.floor(Math.random() * 1000)}`;
  await insertKeptLock(ctx.deps, h.hotel.id, rooms[0]!.id, lockId);
  const session = await createSession(ctx.deps, { accountId: h.staff.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() });
  const call = <T = unknown>(path: string, payload: Record<string, unknown> = {}, language = 'en') =>
    legacy.call<T>(path, payload, { token: session.token, language });
  /** What an old console does with a photo: a token from oss/token, then the upload it signs. */
  async function uploadPhoto(photo = PNG()): Promise<string> {
    const token = await call<{ token: string; host: string; field: string }>('oss/token');
    expect(token.errno).toBe(0);
    const boundary = '----legacy-face';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token.data.token}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${token.data.field}"; filename="face.jpeg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      photo,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: `${token.data.host}?purpose=face`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(uploaded.statusCode).toBe(200);
    return (uploaded.json() as { url: string }).url;
  }
  /** A face added as an old console does: the photo, then uploadTFaceImg. */
  async function addFace(faceId: string, note = 'Lin Wei', extra: Record<string, unknown> = {}, photo = PNG()) {
    const res = await call<LegacyFace>('user/uploadTFaceImg', { face_id: faceId, note, image: await uploadPhoto(photo), ...extra });
    expect(res.errno, res.errmsg).toBe(0);
    return res.data;
  }
  const stay = await insertStay(ctx.deps, {
    hotelId: h.hotel.id,
    roomId: rooms[0]!.id,
    checkInAt: hours(-2),
    expectedCheckOutAt: hours(30),
    guestName: 'Lin Wei',
  });
  return { ...h, rooms, stay, call, uploadPhoto, addFace, lockId };
}

describe('the face database (user/*)', () => {
  it('adds a face from an uploaded photo, lists it paged with a literal search, changes its note and deletes it', async () => {
    const h = await hotel();
    const photo = PNG();
    const face = await h.addFace('1001', 'Lin Wei', {}, photo);
    expect(face).toMatchObject({ face_id: '1001', note: 'Lin Wei', manage_id: null, empower_count: 0 });
    // `image` shows the photo for a while (a signed URL); the uploaded path does not.
    expect(face.image).toMatch(signedImage(h.hotel.id, face.id));
    expect(await fetchImage(face.image)).toEqual(photo);
    expect(face.create_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await h.addFace('1002', '50% off');
    await h.addFace('1003', '50 percent');

    const all = await h.call<Page<LegacyFace>>('user/faceImgList', { page: 1, limit: 2 });
    expect(all).toMatchObject({ errno: 0, data: { total: 3, page: 1, limit: 2 } });
    expect(all.data.list.map((f) => f.face_id)).toEqual(['1003', '1002']);
    for (const f of all.data.list) {
      expect(f.image).toMatch(signedImage(h.hotel.id, f.id));
      expect(await fetchImage(f.image)).toBeInstanceOf(Buffer);
    }
    expect((await h.call<Page<LegacyFace>>('user/faceImgList', { keyword: '50%' })).data.list.map((f) => f.face_id)).toEqual(['1002']);
    expect((await h.call<Page<LegacyFace>>('user/faceImgList', { keyword: '100', page: '1', limit: '20' })).data.total).toBe(3);

    const renamed = await h.call<LegacyFace>('user/updateFaceNote', { id: String(face.id), note: 'Lin Wei (VIP)' });
    expect(renamed).toMatchObject({ errno: 0, data: { id: face.id, note: 'Lin Wei (VIP)' } });
    expect(await h.call('user/deleteTFaceImg', { id: face.id })).toMatchObject({ errno: 0, data: null });
    expect(await h.call('user/deleteTFaceImg', { id: face.id })).toMatchObject({ errno: 100005, errmsg: 'The face does not exist or has been deleted.' });
  });

  it('requires face id, note and image (spec §5), names the fields as sent, and refuses a duplicate face id', async () => {
    const h = await hotel();
    const empty = await h.call('user/uploadTFaceImg', {}, 'zh-CN');
    expect(empty).toMatchObject({ errno: 100001, data: { fields: { face_id: '请输入人脸 ID', note: '请输入人脸备注', image: '请上传人脸照片' } } });
    const blank = await h.call('user/uploadTFaceImg', { face_id: '  ', note: ' ', image: '' });
    expect(blank.data).toEqual({ fields: { face_id: 'Enter the face ID', note: 'Enter a note for the face', image: 'Upload a face photo' } });
    expect((await h.call('user/uploadTFaceImg', { face_id: 'x', note: 'x', image: 'https://oss.example.com/face.png' })).data).toEqual({
      fields: { image: 'The face photo was not found. Upload it again' },
    });
    // A photo path of the right shape that was never uploaded: checked by the service, named as sent.
    expect(
      (await h.call('user/uploadTFaceImg', { face_id: 'x', note: 'x', image: `/uploads/${h.hotel.id}/00000000-0000-4000-8000-000000000000.png` })).data,
    ).toEqual({ fields: { image: 'The face photo was not found. Upload it again' } });
    await h.addFace('2001');
    // The `image` of an answer is a URL to look at, not a photo to add a face with.
    const listed = (await h.call<Page<LegacyFace>>('user/faceImgList')).data.list[0]!.image;
    expect((await h.call('user/uploadTFaceImg', { face_id: '2002', note: 'x', image: listed })).data).toEqual({
      fields: { image: 'The face photo was not found. Upload it again' },
    });
    const image = await h.uploadPhoto();
    expect(await h.call('user/uploadTFaceImg', { face_id: '2001', note: 'again', image })).toMatchObject({
      errno: 100006,
      errmsg: 'A face with this ID already exists',
      data: { fields: { face_id: 'A face with this ID already exists' } },
    });
    // Strict ids.
    for (const id of ['1.0', '1e0', true, [1], ''])
      expect((await h.call('user/updateFaceNote', { id, note: 'x' })).data, JSON.stringify(id)).toEqual({ fields: { id: 'Invalid ID' } });
    expect((await h.call('user/updateFaceNote', { id: 1, note: '' })).data).toEqual({ fields: { note: 'Enter a note for the face' } });
  });

  it('links a face to a guest (manage_id) of the hotel only', async () => {
    const h = await hotel();
    const guest = await ctx.deps.prisma.stayGuest.findFirstOrThrow({ where: { stayId: h.stay.id } });
    expect((await h.addFace('3001', 'Lin Wei', { manage_id: guest.id })).manage_id).toBe(guest.id);
    const other = await hotel();
    expect(await other.call('user/uploadTFaceImg', { face_id: '3002', note: 'x', image: await other.uploadPhoto(), manage_id: guest.id })).toMatchObject({
      errno: 100005,
    });
    expect(await ctx.deps.prisma.face.count({ where: { hotelId: other.hotel.id } })).toBe(0);
  });
});

describe('faces authorised on locks (lock/*)', () => {
  it('authorises a face on a room for a stay, lists it, changes its note, deletes it; the face is deleted only once it is off the lock', async () => {
    const h = await hotel();
    const face = await h.addFace('4001', 'Lin Wei');
    const empowered = await h.call<LegacyEmpower>('lock/empowerFace', {
      face_img_id: face.id,
      room_id: h.rooms[0]!.id,
      stay_id: h.stay.id,
      note: 'front door',
    });
    expect(empowered).toMatchObject({
      errno: 0,
      data: {
        face_img_id: face.id,
        face_id: '4001',
        room_id: h.rooms[0]!.id,
        room_name: 'L101',
        lock_id: h.lockId,
        stay_id: h.stay.id,
        note: 'front door',
        permanent: 0,
        expired: 0,
        state: 'pending',
        state_text: 'Sending to the lock',
        error: null,
        error_text: null,
      },
    });
    expect(empowered.data.end_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:00$/);
    expect(empowered.data.image).toMatch(signedImage(h.hotel.id, face.id));
    expect(await fetchImage(empowered.data.image)).toEqual(await fetchImage(face.image));
    expect((await h.call<LegacyFace>('user/updateFaceNote', { id: face.id, note: 'Lin Wei' })).data.empower_count).toBe(1);

    expect(await h.call('lock/empowerFace', { face_img_id: face.id, room_id: h.rooms[0]!.id })).toMatchObject({
      errno: 100006,
      errmsg: "This face is already authorised on this room's lock",
    });
    const list = await h.call<Page<LegacyEmpower>>('lock/empowerFaceList', { room_id: h.rooms[0]!.id });
    expect(list).toMatchObject({ errno: 0, data: { total: 1, page: 1, limit: 20, list: [{ id: empowered.data.id }] } });
    expect(list.data.list[0]!.image).toMatch(signedImage(h.hotel.id, face.id));
    expect(await fetchImage(list.data.list[0]!.image)).toBeInstanceOf(Buffer);
    expect((await h.call<Page<LegacyEmpower>>('lock/empowerFaceList', { face_img_id: face.id, scope: 'history' })).data.total).toBe(0);

    const noted = await h.call<LegacyEmpower>('user/updateLockFaceNote', { id: empowered.data.id, note: 'back door' });
    expect(noted).toMatchObject({ errno: 0, data: { id: empowered.data.id, note: 'back door' } });

    expect(await h.call('user/deleteTFaceImg', { id: face.id })).toMatchObject({
      errno: 100006,
      errmsg: 'This face is still authorised on the locks of these rooms: L101. Delete those authorisations first.',
    });
    const deleted = await h.call<LegacyEmpower>('lock/deleteEmpowerFace', { id: empowered.data.id });
    expect(deleted).toMatchObject({ errno: 0, data: { state: 'removing', revoke_reason: 'manual', revoke_reason_text: 'Revoked by staff' } });
    // Still refused while it is coming off the lock; once removed (here by hand: no lock cloud), deleted.
    expect((await h.call('user/deleteTFaceImg', { id: face.id })).errno).toBe(100006);
    await ctx.deps.prisma.faceAuthorization.update({ where: { id: empowered.data.id }, data: { deliveryState: 'removed', removedAt: new Date() } });
    expect(await h.call('user/deleteTFaceImg', { id: face.id })).toMatchObject({ errno: 0 });
    expect(await ctx.deps.prisma.faceAuthorization.count({ where: { id: empowered.data.id } })).toBe(0);
    // Its photo is gone with it: the URLs handed out show nothing.
    expect(await fetchImage(face.image)).toBe(404);
    expect(await fetchImage(empowered.data.image)).toBe(404);
  });

  it('takes times in the hotel zone, names time and id fields as sent, and refuses a stay of another room', async () => {
    const h = await hotel();
    const face = await h.addFace('5001');
    const timed = await h.call<LegacyEmpower>('lock/empowerFace', {
      face_img_id: face.id,
      room_id: h.rooms[1]!.id,
      start_time: '2030-05-01 14:00:00',
      end_time: '2030-05-03 12:00',
    });
    expect(timed).toMatchObject({ errno: 0, data: { start_time: '2030-05-01 14:00:00', end_time: '2030-05-03 12:00:00', stay_id: null } });
    // A failure reads in the request's language.
    await ctx.deps.prisma.faceAuthorization.update({ where: { id: timed.data.id }, data: { deliveryState: 'failed', lastError: 'lock_offline' } });
    const [failed] = (await h.call<Page<LegacyEmpower>>('lock/empowerFaceList', { room_id: h.rooms[1]!.id, scope: 'all' }, 'zh-CN')).data.list;
    expect(failed).toMatchObject({ state: 'failed', error: 'lock_offline', error_text: expect.stringMatching(/\p{Script=Han}/u) });
    expect((await h.call<LegacyEmpower>('lock/empowerFace', { face_img_id: face.id, room_id: h.rooms[0]!.id })).data).toMatchObject({
      permanent: 1,
      end_time: null,
    });
    expect((await h.call('lock/empowerFace', { face_img_id: face.id, room_id: h.rooms[0]!.id, start_time: '2030-02-30 14:00:00' })).data).toEqual({
      fields: { start_time: 'Incorrect time format' },
    });
    expect(
      (await h.call('lock/empowerFace', { face_img_id: face.id, room_id: h.rooms[0]!.id, start_time: '2030-05-03 14:00', end_time: '2030-05-01 14:00' })).data,
    ).toEqual({ fields: { end_time: 'The end must be later than the start' } });
    expect((await h.call('lock/empowerFace', { face_img_id: face.id, room_id: h.rooms[0]!.id, end_time: '2020-05-01 14:00' })).data).toEqual({
      fields: { end_time: 'The end must be later than the start' },
    });
    expect(await h.call('lock/empowerFace', { face_img_id: face.id, room_id: h.rooms[1]!.id, stay_id: h.stay.id })).toMatchObject({
      errno: 100001,
      data: { fields: { stay_id: 'This stay belongs to another room' } },
    });
    expect((await h.call('lock/empowerFace', { face_img_id: '1.5', room_id: 'x' })).data).toEqual({
      fields: { face_img_id: 'Invalid ID', room_id: 'Invalid ID' },
    });
    expect((await h.call('lock/empowerFaceList', { limit: 101 })).data).toEqual({ fields: { limit: 'Invalid page size' } });
    expect((await h.call('lock/deleteEmpowerFace', { id: 0 })).data).toEqual({ fields: { id: 'Invalid ID' } });
  });
});

describe('faces across hotels', () => {
  it('answers hotel B "not found" on every face and authorisation of hotel A, and changes nothing', async () => {
    const a = await hotel();
    const b = await hotel();
    const face = await a.addFace('6001', 'Guest of A');
    const empowered = (await a.call<LegacyEmpower>('lock/empowerFace', { face_img_id: face.id, room_id: a.rooms[0]!.id, stay_id: a.stay.id })).data;
    const snapshot = async () =>
      JSON.stringify([
        await ctx.deps.prisma.face.findUniqueOrThrow({ where: { id: face.id } }),
        await ctx.deps.prisma.faceAuthorization.findMany({ where: { faceId: face.id } }),
      ]);
    const before = await snapshot();
    const cases: [string, Record<string, unknown>][] = [
      ['user/updateFaceNote', { id: face.id, note: 'stolen' }],
      ['user/deleteTFaceImg', { id: face.id }],
      ['user/updateLockFaceNote', { id: empowered.id, note: 'stolen' }],
      ['lock/empowerFace', { face_img_id: face.id, room_id: b.rooms[0]!.id }],
      ['lock/empowerFace', { face_img_id: face.id, room_id: a.rooms[1]!.id }],
      ['lock/deleteEmpowerFace', { id: empowered.id }],
    ];
    for (const [path, payload] of cases) expect((await b.call(path, payload)).errno, path).toBe(100005);
    expect((await b.call<Page<LegacyFace>>('user/faceImgList', { keyword: '6001' })).data.total).toBe(0);
    // Hotel A's face and room are "not found" for hotel B, as on every list of a room (issue 18 §1).
    expect((await b.call<Page<LegacyEmpower>>('lock/empowerFaceList', { face_img_id: face.id, scope: 'all' })).errno).toBe(100005);
    expect((await b.call<Page<LegacyEmpower>>('lock/empowerFaceList', { room_id: a.rooms[0]!.id, scope: 'all' })).errno).toBe(100005);
    expect((await b.call('user/uploadTFaceImg', { face_id: 'B1', note: 'x', image: face.image })).errno).toBe(100001);
    const aPhoto = (await ctx.deps.prisma.face.findUniqueOrThrow({ where: { id: face.id } })).imageUrl;
    expect((await b.call('user/uploadTFaceImg', { face_id: 'B1', note: 'x', image: aPhoto })).errno).toBe(100001);
    // A's photo URL moved to B's hotel shows nothing.
    expect(await fetchImage(face.image.replace(`/photo/${a.hotel.id}/`, `/photo/${b.hotel.id}/`))).toBe(404);
    expect(await snapshot()).toBe(before);
  });
});
