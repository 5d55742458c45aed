import { randomBytes } from 'node:crypto';
import { SIM_DEFAULTS, SimClient, simFaceFeatureData, startLockSim, startReceiver, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockProviderError, type LockErrorCode } from './provider';
import { simAdapter } from '../../test/ttlock-adapter';
import { capabilitiesOf, featureBit, parseTtlockNotification, ttlockPasswordGrant, type TtlockProvider } from './ttlock';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A face photo as the console keeps it (the simulator looks at its first bytes and its size only). */
const photo = (size = 2048) => ({
  bytes: Buffer.concat([PNG_SIGNATURE, randomBytes(size - PNG_SIGNATURE.length)]),
  contentType: 'image/png',
  fileName: 'face-1.png',
});

const adapter = simAdapter;
const SHANGHAI = 'Asia/Shanghai';

async function failure(promise: Promise<unknown>): Promise<LockProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LockProviderError) return error;
    throw error;
  }
  throw new Error('expected a LockProviderError, the call succeeded');
}

async function expectCode(promise: Promise<unknown>, code: LockErrorCode, vendorCode?: number) {
  const error = await failure(promise);
  expect({ code: error.code, vendorCode: error.vendorCode }).toEqual({ code, vendorCode: vendorCode ?? error.vendorCode });
  return error;
}

describe('TTLock adapter against the lock simulator', () => {
  let sim: LockSim;
  let control: SimClient;
  let ttlock: TtlockProvider;

  beforeAll(async () => {
    sim = await startLockSim({});
    control = new SimClient(sim.url);
    ttlock = adapter(sim);
  });
  afterAll(() => sim.close());

  const use = (lockId: string, what: Record<string, unknown>) => control.control<{ opened: boolean; outcome: string }>('POST', `/locks/${lockId}/use`, what);
  const newLock = async (lock: Record<string, unknown> = {}) => String((await control.lockWithGateway(lock)).lockId);

  it('is the TTLock provider, simulated', () => {
    expect(ttlock.name).toBe('ttlock');
    expect(ttlock.simulated).toBe(true);
    expect(adapter(sim, { simulated: false }).simulated).toBe(false);
  });

  it('lists locks and tells a lock status', async () => {
    const { lockId, gatewayId } = await control.lockWithGateway({ name: 'Room 201', battery: 64 });
    const locks = await ttlock.listLocks();
    expect(locks.find((l) => l.lockId === String(lockId))).toEqual({
      lockId: String(lockId),
      name: 'SIM Room 201',
      alias: 'SIM Room 201',
      mac: expect.stringMatching(/^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/),
      battery: 64,
      hasGateway: true,
      capabilities: {
        keypad: true,
        cardReader: true,
        fingerprint: false,
        faceModule: true,
        remoteUnlock: true,
        doorSensor: false,
        onlinePasscodes: true,
        offlinePasscodes: true,
        keypadWithoutZero: false,
        backupCodePool: false,
        offlineFirstUse: true,
        encodedCards: false,
      },
      building: '',
      floor: '',
    });
    expect(await ttlock.lockDetail(String(lockId))).toMatchObject({ lockId: String(lockId), alias: 'SIM Room 201', battery: 64 });

    const status = await ttlock.lockStatus(String(lockId));
    expect(status).toMatchObject({
      lockId: String(lockId),
      name: 'SIM Room 201',
      battery: 64,
      online: true,
      gateway: { gatewayId: String(gatewayId), name: expect.stringMatching(/^SIM /), online: true },
    });
    expect(status.lastSeenAt!.getTime()).toBeGreaterThan(Date.now() - MINUTE);

    await control.control('PATCH', `/gateways/${gatewayId}`, { online: false });
    expect(await ttlock.lockStatus(String(lockId))).toMatchObject({ online: false, gateway: { gatewayId: String(gatewayId), online: false } });

    const { lock } = await control.control<{ lock: { lockId: number } }>('POST', '/locks', {});
    expect(await ttlock.lockStatus(String(lock.lockId))).toMatchObject({ online: false, gateway: null });
    await expectCode(ttlock.lockStatus('1'), 'lock_not_found', -1003);
    // TTLock's lock list says nothing of online (the status cycle reads the gateways): null, and no call.
    const before = (await control.calls()).calls.length;
    expect(await ttlock.lockStatuses()).toBeNull();
    expect((await control.calls()).calls.length).toBe(before);
  });

  it('random passcodes: whole hours, start back and end forward, and they open the lock', async () => {
    const lockId = await newLock();
    const hourStart = Math.floor(Date.now() / HOUR) * HOUR;
    const startAt = new Date(hourStart + 20 * MINUTE);
    const endAt = new Date(hourStart + 3 * HOUR + 20 * MINUTE);
    const period = await ttlock.getRandomPasscode(lockId, { type: 'period', name: 'Guest period', timeZone: SHANGHAI, startAt, endAt });
    const permanent = await ttlock.getRandomPasscode(lockId, { type: 'permanent', name: 'Staff', timeZone: SHANGHAI, startAt, endAt: null });
    const oneTime = await ttlock.getRandomPasscode(lockId, { type: 'one_time', name: 'Visitor', timeZone: SHANGHAI, startAt, endAt: null });
    for (const p of [period, permanent, oneTime]) expect(p.code).toMatch(/^\d{6,9}$/);

    const passcodes = await ttlock.listPasscodes(lockId);
    expect(passcodes).toContainEqual({
      ref: period.ref,
      code: period.code,
      name: 'Guest period',
      origin: 'random',
      startAt: new Date(hourStart),
      endAt: new Date(hourStart + 4 * HOUR),
    });
    expect(passcodes).toContainEqual({ ref: permanent.ref, code: permanent.code, name: 'Staff', origin: 'random', startAt: new Date(hourStart), endAt: null });
    expect(passcodes).toContainEqual({
      ref: oneTime.ref,
      code: oneTime.code,
      name: 'Visitor',
      origin: 'random',
      startAt: new Date(hourStart),
      endAt: new Date(hourStart + 6 * HOUR),
    });

    expect(await use(lockId, { passcode: period.code })).toMatchObject({ opened: true });
    expect(await use(lockId, { passcode: oneTime.code })).toMatchObject({ opened: true });
    expect(await use(lockId, { passcode: oneTime.code })).toMatchObject({ opened: false, outcome: 'used' });
    await expectCode(ttlock.getRandomPasscode(lockId, { type: 'period', name: 'x', timeZone: SHANGHAI, startAt, endAt: null }), 'provider_error');
  });

  it('random passcodes in a half-hour time zone are whole hours of its clock (India: :30 UTC)', async () => {
    const lockId = await newLock({ timezoneRawOffset: 19_800_000 });
    // 10:50 UTC is 16:20 in Kolkata: the period starts at 16:00 there (10:30 UTC) and ends at its next whole hour.
    const day = Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR;
    const startAt = new Date(day + 10 * HOUR + 50 * MINUTE);
    const endAt = new Date(day + 13 * HOUR + 5 * MINUTE);
    const { ref } = await ttlock.getRandomPasscode(lockId, { type: 'period', name: 'Guest', timeZone: 'Asia/Kolkata', startAt, endAt });
    expect((await ttlock.listPasscodes(lockId)).find((p) => p.ref === ref)).toMatchObject({
      startAt: new Date(day + 10 * HOUR + 30 * MINUTE),
      endAt: new Date(day + 13 * HOUR + 30 * MINUTE),
    });
  });

  it('a generated code asked again for the hours of a deleted one is refused (-1026), for good', async () => {
    const lockId = await newLock();
    const startAt = new Date(Math.floor(Date.now() / HOUR) * HOUR);
    const endAt = new Date(startAt.getTime() + 5 * HOUR);
    const first = await ttlock.getRandomPasscode(lockId, { type: 'period', name: 'Guest', timeZone: SHANGHAI, startAt, endAt });
    await ttlock.deletePasscode(lockId, first.ref);
    const refused = await expectCode(
      ttlock.getRandomPasscode(lockId, { type: 'period', name: 'Guest', timeZone: SHANGHAI, startAt, endAt }),
      'period_used',
      -1026,
    );
    expect(refused.kind).toBe('permanent');
    // Another whole hour is accepted.
    expect(
      (await ttlock.getRandomPasscode(lockId, { type: 'period', name: 'Guest', timeZone: SHANGHAI, startAt: new Date(startAt.getTime() - HOUR), endAt })).code,
    ).toMatch(/^\d{6,9}$/);
  });

  it('custom passcodes go through the gateway to the lock, to the minute, and come off it', async () => {
    const lockId = await newLock();
    const startAt = new Date(Date.now() - 90_500);
    const endAt = new Date(Date.now() + 2 * HOUR + 10_500);
    const { ref } = await ttlock.addCustomPasscode(lockId, { code: '480613', name: 'Room 202 guest', startAt, endAt });
    const { ref: staff } = await ttlock.addCustomPasscode(lockId, { code: '5709124', name: 'Staff', startAt, endAt: null });
    // On the lock, not only in the cloud (addType 2).
    expect(await use(lockId, { passcode: '480613' })).toMatchObject({ opened: true });
    expect(await use(lockId, { passcode: '5709124' })).toMatchObject({ opened: true });

    const listed = await ttlock.listPasscodes(lockId);
    expect(listed).toContainEqual({
      ref,
      code: '480613',
      name: 'Room 202 guest',
      origin: 'custom',
      startAt: new Date(Math.floor(startAt.getTime() / MINUTE) * MINUTE),
      endAt: new Date(Math.ceil(endAt.getTime() / MINUTE) * MINUTE),
    });
    expect(listed.find((p) => p.ref === staff)).toMatchObject({ origin: 'custom', endAt: null });
    // TTLock answers once the gateway set it: a listed passcode is on the lock, nothing in between.
    expect(await ttlock.passcodeState(lockId, ref)).toEqual({ state: 'on_lock', error: null, warnings: [], vendorStatus: null });

    await ttlock.deletePasscode(lockId, ref);
    // Off the lock too (deleteType 2), not only out of the cloud's list.
    expect(await use(lockId, { passcode: '480613' })).toMatchObject({ opened: false, outcome: 'unknown' });
    expect((await ttlock.listPasscodes(lockId)).map((p) => p.ref)).toEqual([staff]);
    expect(await ttlock.passcodeState(lockId, ref)).toMatchObject({ state: 'gone', error: null });
    await expectCode(ttlock.deletePasscode(lockId, ref), 'credential_not_found', -2009);
  });

  it('changes the validity of a custom passcode on the lock, to the minute; a generated one not used yet cannot be changed (-3008)', async () => {
    const lockId = await newLock();
    const now = Date.now();
    const { ref } = await ttlock.addCustomPasscode(lockId, { code: '480613', name: 'Guest', startAt: new Date(now - HOUR), endAt: new Date(now + 5 * HOUR) });
    const random = await ttlock.getRandomPasscode(lockId, { type: 'permanent', name: 'Staff', timeZone: SHANGHAI, startAt: new Date(now), endAt: null });

    expect(await use(lockId, { passcode: '480613' })).toMatchObject({ opened: true });
    await ttlock.changePasscodeValidity(lockId, ref, { startAt: new Date(now - HOUR), endAt: new Date(now - 2 * MINUTE - 500) });
    expect((await ttlock.listPasscodes(lockId)).find((p) => p.ref === ref)).toMatchObject({
      endAt: new Date(Math.ceil((now - 2 * MINUTE - 500) / MINUTE) * MINUTE),
    });
    // The lock applies it: the code has ended.
    expect(await use(lockId, { passcode: '480613' })).toMatchObject({ opened: false, outcome: 'expired' });

    const end = new Date(now + 2 * HOUR + 5 * MINUTE);
    const refused = await expectCode(ttlock.changePasscodeValidity(lockId, random.ref, { startAt: new Date(now), endAt: end }), 'not_changeable', -3008);
    expect(refused.kind).toBe('permanent');

    await ttlock.deletePasscode(lockId, ref);
    await expectCode(ttlock.changePasscodeValidity(lockId, ref, { startAt: new Date(now), endAt: end }), 'credential_not_found', -2009);
  });

  it('cards: add through the gateway, list, open, delete', async () => {
    const lockId = await newLock();
    const startAt = new Date(Date.now() - HOUR);
    const endAt = new Date(Date.now() + HOUR);
    const { ref } = await ttlock.addCard(lockId, { cardNumber: '3661413478', name: 'Room 203 card', reversed: false, startAt, endAt });
    const { ref: master } = await ttlock.addCard(lockId, { cardNumber: '1723612378', name: 'Master', reversed: false, startAt, endAt: null });
    expect(await use(lockId, { cardNumber: '3661413478' })).toMatchObject({ opened: true });
    const cards = await ttlock.listCards(lockId);
    expect(cards).toContainEqual({ ref, cardNumber: '3661413478', name: 'Room 203 card', startAt, endAt });
    expect(cards).toContainEqual({ ref: master, cardNumber: '1723612378', name: 'Master', startAt, endAt: null });
    await ttlock.deleteCard(lockId, ref);
    expect(await use(lockId, { cardNumber: '3661413478' })).toMatchObject({ opened: false });
    await expectCode(ttlock.deleteCard(lockId, ref), 'credential_not_found', -1021);
  });

  it('cards whose desk reader gives the other byte order go by identityCard/addForReversedCardNumber', async () => {
    // The card DA3C8A66 read big-endian at the desk is 3661989478; a lock reading it little-endian sees 1720335578.
    const lockId = await newLock({ cardNumberOrder: 'little' });
    const deskNumber = String(0xda3c8a66);
    await ttlock.addCard(lockId, { cardNumber: deskNumber, name: 'Guest', reversed: false, startAt: new Date(Date.now() - HOUR), endAt: null });
    expect(await control.useCard(Number(lockId), 'DA3C8A66')).toMatchObject({ opened: false });
    await ttlock.addCard(lockId, { cardNumber: deskNumber, name: 'Guest', reversed: true, startAt: new Date(Date.now() - HOUR), endAt: null });
    expect(await control.useCard(Number(lockId), 'DA3C8A66')).toMatchObject({ opened: true });
    const calls = (await control.calls()).calls.map((c) => c.path);
    expect(calls).toContain('identityCard/addForReversedCardNumber');
  });

  it('faces: feature data from the photo, add through the gateway, list, open, delete', async () => {
    const lockId = await newLock();
    const startAt = new Date(Date.now() - HOUR);
    const endAt = new Date(Date.now() + HOUR);
    const face = photo();
    const featureData = await ttlock.faceFeatureData(lockId, face);
    expect(featureData).toBe(simFaceFeatureData(Number(lockId), face.bytes));
    // face/add takes only what the cloud made for this lock.
    await expectCode(ttlock.addFace(lockId, { featureData: 'F0E41DEAEDF7F31420D5', name: 'Guest face', startAt, endAt }), 'invalid_parameter', -3);
    const { ref } = await ttlock.addFace(lockId, { featureData, name: 'Guest face', startAt, endAt });
    expect(await use(lockId, { faceId: Number(ref) })).toMatchObject({ opened: true });
    expect(await ttlock.listFaces(lockId)).toEqual([{ ref, name: 'Guest face', startAt, endAt }]);
    await ttlock.deleteFace(lockId, ref);
    expect(await use(lockId, { faceId: Number(ref) })).toMatchObject({ opened: false });
    expect(await ttlock.listFaces(lockId)).toEqual([]);
    await expectCode(ttlock.deleteFace(lockId, ref), 'credential_not_found', -3);
  });

  it('asks face/getFeatureDataByPhoto as TTLock documents it: multipart `image`, the rest in the query, a new token when it is refused', async () => {
    const lockId = await newLock();
    const sent: { url: URL; method: string | undefined; contentType: string | null; image: File | null }[] = [];
    const spy = adapter(sim, {
      fetch: async (input, init) => {
        const url = new URL(String(input));
        if (url.pathname === '/v3/face/getFeatureDataByPhoto') {
          const body = init?.body instanceof FormData ? init.body : null;
          sent.push({
            url,
            method: init?.method,
            contentType: new Headers(init?.headers).get('content-type'),
            image: body?.get('image') instanceof File ? (body.get('image') as File) : null,
          });
        }
        return fetch(input, init);
      },
    });
    const face = photo(4096);
    expect(await spy.faceFeatureData(lockId, face)).toBe(simFaceFeatureData(Number(lockId), face.bytes));
    const [call] = sent;
    expect(call!.method).toBe('POST');
    expect(Object.fromEntries(call!.url.searchParams)).toEqual({
      clientId: SIM_DEFAULTS.clientId,
      accessToken: expect.any(String),
      lockId,
      date: expect.stringMatching(/^\d{13}$/),
    });
    // fetch writes the multipart content type with its boundary itself.
    expect(call!.contentType).toBeNull();
    expect({ name: call!.image?.name, type: call!.image?.type, size: call!.image?.size }).toEqual({ name: 'face-1.png', type: 'image/png', size: 4096 });
    expect(Buffer.from(await call!.image!.arrayBuffer()).equals(face.bytes)).toBe(true);

    // A revoked token: a new one, and the photo sent again.
    await control.control('POST', '/tokens/expire');
    expect(await spy.faceFeatureData(lockId, face)).toBe(simFaceFeatureData(Number(lockId), face.bytes));
    expect(sent.length).toBe(3);
    // The same photo on another lock is other feature data.
    const other = await newLock();
    expect(await spy.faceFeatureData(other, face)).not.toBe(await spy.faceFeatureData(lockId, face));
  });

  it('maps face/getFeatureDataByPhoto refusals: a photo it cannot use is photo_rejected (permanent), the rest as usual', async () => {
    const lockId = await newLock();
    const rejected = await expectCode(ttlock.faceFeatureData(lockId, photo(2 * 1024 * 1024 + 1)), 'photo_rejected', -3);
    expect(rejected.retryable).toBe(false);
    expect(rejected.vendorMessage).toContain('2 MB');
    await expectCode(
      ttlock.faceFeatureData(lockId, { bytes: Buffer.from('GIF89a not a photo'), contentType: 'image/gif', fileName: 'x.gif' }),
      'photo_rejected',
      -3,
    );
    expect(await ttlock.faceFeatureData(lockId, photo(2 * 1024 * 1024))).toMatch(/^[0-9A-F]{80}$/);
    await expectCode(ttlock.faceFeatureData('1', photo()), 'lock_not_found', -1003);
    await expectCode(ttlock.faceFeatureData(await newLock({ faceModule: false }), photo()), 'not_supported', -4043);
    // TTLock's generic failure and a code it does not publish: the photo; its internal error and the call rate: not.
    for (const [code, expected, kind] of [
      [1, 'photo_rejected', 'permanent'],
      [-4999, 'photo_rejected', 'permanent'],
      [90000, 'cloud_error', 'retry'],
      [30006, 'rate_limited', 'limit'],
      [-2025, 'lock_frozen', 'permanent'],
    ] as const) {
      await control.control('POST', '/failures/next', { code, op: 'face/getFeatureDataByPhoto', lockId: Number(lockId) });
      const error = await expectCode(ttlock.faceFeatureData(lockId, photo()), expected, code);
      expect(error.kind, String(code)).toBe(kind);
    }
    // An answer without hexadecimal feature data.
    const empty = adapter(sim, {
      fetch: async (input, init) => (String(input).includes('getFeatureDataByPhoto') ? Response.json({ featureData: '' }) : fetch(input, init)),
    });
    await expectCode(empty.faceFeatureData(lockId, photo()), 'photo_rejected');
    // No answer at all is the network's fault: retried.
    const down = adapter(sim, {
      fetch: async (input, init) => (String(input).includes('getFeatureDataByPhoto') ? new Response('bad gateway', { status: 502 }) : fetch(input, init)),
    });
    await expectCode(down.faceFeatureData(lockId, photo()), 'network');
  });

  it('unlocks through the gateway and reads the records, oldest first, within the range', async () => {
    const lockId = await newLock();
    const before = new Date(Date.now() - MINUTE);
    await ttlock.addCustomPasscode(lockId, { code: '480613', name: 'Guest', startAt: before, endAt: null });
    await use(lockId, { passcode: '480613' });
    await use(lockId, { passcode: '999000' });
    await ttlock.unlock(lockId);
    const records = await ttlock.listRecords(lockId, { from: before, to: new Date(Date.now() + MINUTE) });
    expect(records.map((r) => [r.recordType, r.success, r.username, r.credential])).toEqual([
      [4, true, 'Guest', '480613'],
      [4, false, '', '999000'],
      [12, true, SIM_DEFAULTS.username, ''],
    ]);
    expect(new Set(records.map((r) => r.recordId)).size).toBe(3);
    expect(records[0]).toMatchObject({ lockId, battery: 90, lockDate: expect.any(Date), serverDate: expect.any(Date) });
    expect(await ttlock.listRecords(lockId, { from: new Date(Date.now() + MINUTE), to: new Date(Date.now() + HOUR) })).toEqual([]);
  });

  it("keeps the cloud's order for records of the same millisecond (newest first from the cloud, oldest first here)", async () => {
    const lockId = await newLock();
    const at = Date.now();
    // As the cloud lists them: the newest first; the refused code came after the opening, in the same millisecond.
    const listed = [
      {
        recordId: 2,
        lockId: Number(lockId),
        recordType: 4,
        success: 0,
        username: '',
        keyboardPwd: '999000',
        lockDate: at,
        serverDate: at,
        electricQuantity: 90,
      },
      {
        recordId: 1,
        lockId: Number(lockId),
        recordType: 4,
        success: 1,
        username: 'Guest',
        keyboardPwd: '480613',
        lockDate: at,
        serverDate: at,
        electricQuantity: 90,
      },
    ];
    const same = adapter(sim, {
      fetch: async (input, init) =>
        String(input).includes('lockRecord/list') ? Response.json({ list: listed, pageNo: 1, pageSize: 200, pages: 1, total: 2 }) : fetch(input, init),
    });
    const records = await same.listRecords(lockId, { from: new Date(at - MINUTE), to: new Date(at + MINUTE) });
    expect(records.map((r) => r.credential)).toEqual(['480613', '999000']);
  });

  it('reads lists of more than one page (page size 200)', async () => {
    const lockId = await newLock();
    const lock = sim.cloud.state.locks[lockId]!;
    for (let i = 0; i < 450; i += 1) sim.cloud.plantDrift(lock, { kind: 'passcode', code: String(10_000_000 + i * 7), name: `Code ${i}` });
    for (let i = 0; i < 230; i += 1) sim.cloud.presentCard(lock, String(5_000 + i));
    const callsBefore = sim.cloud.calls.length;

    const passcodes = await ttlock.listPasscodes(lockId);
    expect(passcodes).toHaveLength(450);
    expect(new Set(passcodes.map((p) => p.code)).size).toBe(450);
    const records = await ttlock.listRecords(lockId, { from: new Date(Date.now() - HOUR), to: new Date(Date.now() + HOUR) });
    expect(records).toHaveLength(230);
    expect(records.map((r) => r.credential)).toEqual(Array.from({ length: 230 }, (_, i) => String(5_000 + i)));

    const calls = sim.cloud.calls.slice(callsBefore).map((c) => c.path);
    expect(calls.filter((p) => p === 'lock/listKeyboardPwd')).toHaveLength(3);
    expect(calls.filter((p) => p === 'lockRecord/list')).toHaveLength(2);
  });

  describe('maps TTLock errors to its own codes', () => {
    it('gateway and lock reachability', async () => {
      const { lockId, gatewayId } = await control.lockWithGateway();
      const id = String(lockId);
      const add = () => ttlock.addCustomPasscode(id, { code: '480613', name: 'x', startAt: new Date(), endAt: null });
      await control.control('PATCH', `/gateways/${gatewayId}`, { online: false });
      const offline = await expectCode(add(), 'gateway_offline', -3002);
      expect(offline.retryable).toBe(true);
      await control.control('PATCH', `/gateways/${gatewayId}`, { online: true, busy: true });
      await expectCode(add(), 'gateway_busy', -3003);
      await control.control('PATCH', `/gateways/${gatewayId}`, { busy: false });
      await control.control('PATCH', `/locks/${lockId}`, { online: false });
      await expectCode(add(), 'lock_offline', -3036);
      await control.control('PATCH', `/locks/${lockId}`, { online: true });
      await control.control('POST', '/failures/next', { code: -3037, lockId });
      await expectCode(add(), 'lock_busy', -3037);
      const { lock } = await control.control<{ lock: { lockId: number } }>('POST', '/locks', {});
      await expectCode(ttlock.unlock(String(lock.lockId)), 'no_gateway', -2012);
    });

    it('passcodes the lock refuses', async () => {
      const lockId = await newLock({ capacity: { passcodes: 1, cards: 1 } });
      const add = (code: string) => ttlock.addCustomPasscode(lockId, { code, name: 'x', startAt: new Date(), endAt: null });
      const tooSimple = await expectCode(add('123456'), 'code_too_simple', -2032);
      expect(tooSimple.retryable).toBe(false);
      await expectCode(add('12'), 'code_length', -3006);
      await add('480613');
      await expectCode(add('480613'), 'duplicate_code', -3007);
      await expectCode(add('590724'), 'storage_full', -3009);
      await ttlock.addCard(lockId, { cardNumber: '3661413478', name: 'x', reversed: false, startAt: new Date(), endAt: null });
      await expectCode(
        ttlock.addCard(lockId, { cardNumber: '1723612378', name: 'y', reversed: false, startAt: new Date(), endAt: null }),
        'storage_full',
        -4056,
      );
    });

    it('the lock and the cloud', async () => {
      const lockId = await newLock({ remoteUnlock: false });
      await expectCode(ttlock.unlock(lockId), 'not_supported', -4043);
      await expectCode(ttlock.listPasscodes('1'), 'lock_not_found', -1003);
      await control.control('PATCH', `/locks/${lockId}`, { frozen: true });
      await expectCode(
        ttlock.addCard(lockId, { cardNumber: '3661413478', name: 'x', reversed: false, startAt: new Date(), endAt: null }),
        'lock_frozen',
        -2025,
      );
      await control.control('POST', '/failures/next', { code: 30006, lockId: Number(lockId) });
      expect((await expectCode(ttlock.listCards(lockId), 'rate_limited', 30006)).kind).toBe('limit');
      await control.control('POST', '/failures/next', { code: 30007, lockId: Number(lockId) });
      expect((await expectCode(ttlock.listCards(lockId), 'monthly_limit', 30007)).kind).toBe('limit');
      await control.control('POST', '/failures/next', { code: 90000, message: 'internal server error', lockId: Number(lockId) });
      const other = await expectCode(ttlock.listCards(lockId), 'cloud_error', 90000);
      expect(other.vendorMessage).toBe('internal server error');
      expect(other.kind).toBe('retry');
      // The permanent refusals of the catalogue are never retried.
      for (const [code, expected] of [
        [-3008, 'not_changeable'],
        [-1026, 'period_used'],
        [-2018, 'permission_denied'],
        [20002, 'permission_denied'],
        [80000, 'clock_skew'],
      ] as const) {
        await control.control('POST', '/failures/next', { code, lockId: Number(lockId) });
        expect((await expectCode(ttlock.listCards(lockId), expected, code)).kind, String(code)).toBe('permanent');
      }
    });

    it('a lock of another account is refused (-2018): an account acts on its own locks only', async () => {
      await control.createAccount({ username: 'other-hotel', password: 'other-password' });
      const theirs = String((await control.lockWithGateway({ account: 'other-hotel' })).lockId);
      await expectCode(ttlock.unlock(theirs), 'permission_denied', -2018);
      await expectCode(ttlock.lockDetail(theirs), 'permission_denied', -2018);
      expect((await ttlock.listLocks()).map((l) => l.lockId)).not.toContain(theirs);
      const other = adapter(sim, { account: { username: 'other-hotel', password: 'other-password' } });
      expect((await other.listLocks()).map((l) => l.lockId)).toEqual([theirs]);
    });

    it('refused credentials', async () => {
      const app = { baseUrl: sim.url, clientId: SIM_DEFAULTS.clientId, clientSecret: SIM_DEFAULTS.clientSecret, simulated: true };
      await expectCode(ttlockPasswordGrant(app, SIM_DEFAULTS.username, 'not the password'), 'auth_failed', 10007);
      await expectCode(ttlockPasswordGrant({ ...app, clientSecret: 'not the secret' }, SIM_DEFAULTS.username, SIM_DEFAULTS.password), 'app_refused', 10001);
      await expectCode(ttlockPasswordGrant({ ...app, clientId: 'not-the-client' }, SIM_DEFAULTS.username, SIM_DEFAULTS.password), 'app_refused', 10000);
      // An account of the other TTLock region (30008).
      await control.createAccount({ username: 'shenzhen-hotel', password: 'pw-cn', region: 'cn' });
      const region = await expectCode(ttlockPasswordGrant(app, 'shenzhen-hotel', 'pw-cn'), 'wrong_region', 30008);
      expect(region.kind).toBe('account');
      // Refused on a call after a good login (the client was revoked meanwhile): the account is told.
      const revoked = adapter(sim);
      await revoked.listLocks();
      await control.control('POST', '/failures/next', { code: 10000, op: 'lock/list' });
      await expectCode(revoked.listLocks(), 'app_refused', 10000);
      expect(revoked.store.refusals).toEqual(['app_refused']);
      // A token endpoint that fails for another reason is not a refusal of our credentials.
      await control.control('POST', '/failures/next', { code: 90000, op: 'oauth2/token' });
      const outage = await expectCode(adapter(sim).listLocks(), 'cloud_error', 90000);
      expect(outage.retryable).toBe(true);
    });

    it('a cloud that does not answer, or not in its protocol, is `network`', async () => {
      const lockId = await newLock({ latencyMs: 3_000 });
      const impatient = adapter(sim, { timeoutMs: 300 });
      await expectCode(impatient.unlock(lockId), 'network', undefined);
      await expectCode(adapter(sim, { baseUrl: 'http://127.0.0.1:9' }).listLocks(), 'network', undefined);
      const html = adapter(sim, { fetch: async () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }) });
      await expectCode(html.listLocks(), 'network', undefined);
    });
  });
});

describe('TTLock adapter tokens', () => {
  let sim: LockSim;
  let control: SimClient;

  beforeAll(async () => {
    // Tokens of 400 s: the adapter refreshes them in their last 200 s.
    sim = await startLockSim({ tokenTtlSeconds: 400 });
    control = new SimClient(sim.url);
  });
  afterAll(() => sim.close());

  const grants = async () => (await control.control<{ grants: { password: number; refresh_token: number } }>('GET', '/tokens')).grants;

  it('logs in once with the MD5 of the password and keeps the token', async () => {
    const ttlock = adapter(sim);
    const before = await grants();
    await Promise.all([ttlock.listLocks(), ttlock.listLocks(), ttlock.listLocks()]);
    await ttlock.listLocks();
    expect(await grants()).toEqual({ password: before.password + 1, refresh_token: before.refresh_token });
  });

  it('refreshes the token before it expires', async () => {
    let offset = 0;
    const ttlock = adapter(sim, { now: () => Date.now() + offset });
    await ttlock.listLocks();
    const before = await grants();
    // 250 s later (on both clocks) the token has 150 s left: the adapter refreshes it first.
    offset = 250_000;
    await control.control('PUT', '/clock', { offsetMs: offset });
    try {
      await ttlock.listLocks();
      await ttlock.listLocks();
      expect(await grants()).toEqual({ password: before.password, refresh_token: before.refresh_token + 1 });
    } finally {
      await control.control('PUT', '/clock', { offsetMs: 0 });
    }
  });

  it('gets a new token once when the cloud says the token is invalid', async () => {
    const ttlock = adapter(sim);
    await ttlock.listLocks();
    const before = await grants();
    await control.control('POST', '/tokens/expire');
    await ttlock.listLocks();
    expect(await grants()).toEqual({ password: before.password, refresh_token: before.refresh_token + 1 });

    // Still invalid after the new token: auth_failed, after exactly one more try.
    await control.control('POST', '/failures/next', { code: 10004, op: 'lock/list', times: 3 });
    const callsBefore = sim.cloud.calls.length;
    await expectCode(ttlock.listLocks(), 'auth_failed', 10004);
    expect(sim.cloud.calls.slice(callsBefore).filter((c) => c.path === 'lock/list')).toHaveLength(2);
    await control.control('DELETE', '/failures/next');
  });

  it('a refresh token refused means the account needs its password again: the store is told, no password is ever sent', async () => {
    const ttlock = adapter(sim);
    await ttlock.listLocks();
    const before = await grants();
    await control.control('POST', '/tokens/expire');
    await control.control('POST', '/failures/next', { code: 10011, op: 'oauth2/token' });
    await expectCode(ttlock.listLocks(), 'auth_failed', 10011);
    expect(ttlock.store.refusals).toEqual(['auth_failed']);
    expect((await grants()).password).toBe(before.password);
    // And then there are no tokens: every call says the account is not connected, without a call.
    await expectCode(ttlock.listLocks(), 'account_disconnected');
  });

  it('counts every call of the account, the grant included, with its errcode', async () => {
    const seen: [string, number][] = [];
    const ttlock = adapter(sim, { onCall: (op, errcode) => seen.push([op, errcode]) });
    await ttlock.listLocks();
    await expectCode(ttlock.lockDetail('1'), 'lock_not_found', -1003);
    expect(seen).toEqual([
      ['oauth2/token', 0],
      ['lock/list', 0],
      ['lock/detail', -1003],
    ]);
    // A refused password grant is a call the cloud answered too.
    const refusedSeen: [string, number][] = [];
    const app = { baseUrl: sim.url, clientId: SIM_DEFAULTS.clientId, clientSecret: SIM_DEFAULTS.clientSecret, simulated: true };
    await expectCode(
      ttlockPasswordGrant(app, SIM_DEFAULTS.username, 'not the password', (op, errcode) => refusedSeen.push([op, errcode])),
      'auth_failed',
      10007,
    );
    expect(refusedSeen).toEqual([['oauth2/token', 10007]]);
  });
});

describe('TTLock accounts, gateways and lock capabilities', () => {
  let sim: LockSim;
  let control: SimClient;
  beforeAll(async () => {
    sim = await startLockSim({});
    control = new SimClient(sim.url);
  });
  afterAll(() => sim.close());

  it('reads a feature value as TTLock documents it (bits counted from the right)', () => {
    // TTLock's own example: C2F44354CF1F3 supports passcodes (bit 0), IC cards (1), not fingerprints (2).
    expect([0, 1, 2, 3].map((b) => featureBit('C2F44354CF1F3', b))).toEqual([true, true, false, false]);
    expect(featureBit('not hex', 0)).toBe(false);
    expect(capabilitiesOf(((1n << 69n) | 1n).toString(16))).toMatchObject({ keypad: true, cardReader: false, faceModule: true });
    expect(capabilitiesOf((1n << 110n).toString(16))).toMatchObject({ keypad: false, faceModule: true });
  });

  it("lists a lock's capabilities, and a gateway's locks", async () => {
    const account = { username: 'caps-hotel', password: 'caps-pw' };
    await control.createAccount(account);
    const ttlock = adapter(sim, { account });
    const { lockId, gatewayId } = await control.lockWithGateway({
      account: account.username,
      keypad: true,
      cardReader: false,
      faceModule: false,
      doorSensor: true,
    });
    expect((await ttlock.listLocks()).find((l) => l.lockId === String(lockId))?.capabilities).toEqual({
      keypad: true,
      cardReader: false,
      fingerprint: false,
      faceModule: false,
      remoteUnlock: true,
      doorSensor: true,
      onlinePasscodes: true,
      offlinePasscodes: true,
      keypadWithoutZero: false,
      backupCodePool: false,
      offlineFirstUse: true,
      encodedCards: false,
    });
    expect(await ttlock.listGateways()).toEqual([
      { gatewayId: String(gatewayId), name: expect.any(String), mac: expect.any(String), online: true, lockCount: 1 },
    ]);
    expect(await ttlock.gatewayLocks(String(gatewayId))).toEqual([{ lockId: String(lockId), rssi: expect.any(Number), seenAt: expect.any(Date) }]);
    expect(await ttlock.doorSensor(String(lockId))).toMatchObject({ doorSensorId: expect.stringMatching(/^\d+$/) });
    const plain = String((await control.lockWithGateway({ account: account.username })).lockId);
    expect(await ttlock.doorSensor(plain)).toBeNull();
    // Sent as TTLock documents it, a form POST (the simulator refuses a GET: HTTP 405, -3).
    const sensorCalls = (await control.calls({ account: account.username })).calls.filter((c) => c.path === 'doorSensor/query');
    expect(sensorCalls.map((c) => [c.method, c.errcode])).toEqual([
      ['POST', 0],
      ['POST', -4043],
    ]);
  });

  it("reads a TTHotel account's locks with lock/listByHotel, with their building and floor", async () => {
    const account = { username: 'tthotel-desk', password: 'tthotel-pw' };
    await control.createAccount({ ...account, kind: 'tthotel' });
    const { lockId } = await control.lockWithGateway({
      account: account.username,
      name: 'Room 305',
      building: { name: 'East wing', number: 1 },
      floor: { name: '3F', number: 3 },
    });
    const asHotel = adapter(sim, { account, kind: 'tthotel' });
    expect(await asHotel.listLocks()).toEqual([expect.objectContaining({ lockId: String(lockId), building: 'East wing', floor: '3F' })]);
    // The same account read as a TTLock app account lists nothing: TTHotel's locks are not in lock/list.
    expect(await adapter(sim, { account }).listLocks()).toEqual([]);
  });
});

describe('TTLock lock record callback', () => {
  it('parses what the cloud posts, with the same record ids as lockRecord/list', async () => {
    const receiver = await startReceiver();
    const sim = await startLockSim({ callbackUrl: receiver.url, callbackRetryDelaysMs: [100] });
    try {
      const control = new SimClient(sim.url);
      const ttlock = adapter(sim);
      const lockId = String((await control.lockWithGateway({ battery: 81 })).lockId);
      await ttlock.addCard(lockId, { cardNumber: '3661413478', name: 'Room 204 card', reversed: false, startAt: new Date(Date.now() - HOUR), endAt: null });
      await control.control('POST', `/locks/${lockId}/use`, { cardNumber: '3661413478' });
      await receiver.waitFor(1);

      const notification = parseTtlockNotification(receiver.received[0]!.fields);
      expect(notification).toMatchObject({ type: 'records', lockId, refused: 0 });
      const parsed = notification.type === 'records' ? notification.records : null;
      expect(parsed).toEqual([
        {
          recordId: expect.any(String),
          lockId,
          recordType: 7,
          success: true,
          username: 'Room 204 card',
          credential: '3661413478',
          lockDate: expect.any(Date),
          serverDate: expect.any(Date),
          battery: 81,
        },
      ]);
      const listed = await ttlock.listRecords(lockId, { from: new Date(Date.now() - HOUR), to: new Date(Date.now() + HOUR) });
      expect(listed.map((r) => r.recordId)).toEqual(parsed!.map((r) => r.recordId));
      expect(listed[0]!.lockDate).toEqual(parsed![0]!.lockDate);
    } finally {
      await sim.close();
      await receiver.close();
    }
  });

  it('reads every kind of notification TTLock posts, and keeps the good records of a batch', () => {
    expect(parseTtlockNotification({ notifyType: '2', gatewayId: '1', isOnline: '0' })).toEqual({ type: 'gateway', gatewayId: '1', online: false });
    expect(parseTtlockNotification({ notifyType: '3', lockId: '5', isOnline: '1', lockAlias: 'x' })).toEqual({ type: 'wifi_lock', lockId: '5', online: true });
    expect(parseTtlockNotification({ notifyType: '4', lockId: '5', errcode: '-3036' })).toEqual({ type: 'async_failure', lockId: '5', errcode: -3036 });
    expect(parseTtlockNotification({ notifyType: '7', doorSensorId: '77', recordType: '2' })).toEqual({
      type: 'door_sensor',
      doorSensorId: '77',
      state: 'left_open',
    });
    expect(parseTtlockNotification({ notifyType: '9', anything: 'else' })).toEqual({ type: 'other', notifyType: '9' });
    expect(parseTtlockNotification({})).toEqual({ type: 'other', notifyType: '' });
    expect(parseTtlockNotification({ notifyType: '1', records: '[]' })).toEqual({ type: 'other', notifyType: '1' });
    expect(parseTtlockNotification({ notifyType: '1', lockId: '5', records: 'not json' })).toEqual({ type: 'records', lockId: '5', records: [], refused: 0 });
    const batch = parseTtlockNotification({
      notifyType: ['1'],
      lockId: ['5'],
      records: [
        JSON.stringify([
          { recordType: 4, success: 0, lockDate: 1_700_000_000_000, keyboardPwd: '1', username: 'Lin\u0000 Wei \ud800' },
          { success: 1 },
          { recordType: 4, success: 1, lockDate: 1e308 },
          { recordType: 1e308, success: 1, lockDate: 1_700_000_000_000 },
          { recordType: -1e308, success: 1, lockDate: -1e308 },
          { recordType: 4, success: 1, lockDate: 1_700_000_000_000, electricQuantity: 1e308 },
        ]),
      ],
    });
    expect(batch).toMatchObject({ type: 'records', refused: 4 });
    expect(batch.type === 'records' && batch.records).toMatchObject([
      { lockId: '5', recordType: 4, success: false, credential: '1', username: 'Lin Wei \ufffd', battery: null },
      { lockId: '5', recordType: 4, success: true, battery: null },
    ]);
  });
});
