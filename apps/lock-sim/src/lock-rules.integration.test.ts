import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_DEFAULTS, startLockSim, type LockSim, type LockSimOptions } from './server';
import { SimClient, startReceiver } from './test-client';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PAGE = { pageNo: 1, pageSize: 20 };

/**
 * TTLock's documented rule for `featureValue` (document-pages/cloud/lock/featureValue), literally:
 * the hexadecimal string to binary, cut into bytes from the right, each byte's bits reversed; the
 * i-th character of the result is bit i.
 */
function featureBits(featureValue: string): string {
  const binary = [...featureValue].map((h) => parseInt(h, 16).toString(2).padStart(4, '0')).join('');
  const bytes: string[] = [];
  for (let end = binary.length; end > 0; end -= 8) bytes.push(binary.slice(Math.max(0, end - 8), end));
  return bytes.map((b) => [...b].reverse().join('')).join('');
}
const supports = (featureValue: unknown, bit: number) => featureBits(String(featureValue))[bit] === '1';
const FEATURES = { passcode: 0, icCard: 1, fingerprint: 2, gatewayUnlock: 10, doorSensor: 13, face: 69 } as const;
const featuresOf = (featureValue: unknown) => Object.fromEntries(Object.entries(FEATURES).map(([name, bit]) => [name, supports(featureValue, bit)]));

/** A simulator for one test (its clock may be moved), closed afterwards. */
async function withSim<T>(options: LockSimOptions, run: (client: SimClient, sim: LockSim) => Promise<T>): Promise<T> {
  const sim = await startLockSim({ latencyMs: 5, ...options });
  try {
    const client = new SimClient(sim.url);
    await client.login();
    return await run(client, sim);
  } finally {
    await sim.close();
  }
}

async function controlRaw(url: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${url}/sim${route}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('lock simulator: what each lock can do, and the rules of passcodes and cards', () => {
  let sim: LockSim;
  let client: SimClient;

  beforeAll(async () => {
    sim = await startLockSim({ latencyMs: 5 });
    client = new SimClient(sim.url);
    await client.login();
  });
  afterAll(() => sim.close());

  it("decodes TTLock's own example with the documented rule (the decoder the next test uses)", () => {
    expect(featureBits('C2F44354CF1F3')).toBe(['11001111', '10001111', '00110010', '10101100', '00100010', '11110100', '0011'].join(''));
  });

  it('shows its capabilities in featureValue (bits 0 keypad, 1 IC card, 2 fingerprint, 10 remote unlock, 13 door sensor, 69 face) in lock/list, lock/detail and lock/listByHotel', async () => {
    const full = await client.lockWithGateway({ battery: 71 });
    const bare = await client.lockWithGateway({ keypad: false, cardReader: false, faceModule: false, remoteUnlock: false, doorSensor: true });

    const listed = Object.fromEntries(
      ((await client.call('lock/list', { pageNo: 1, pageSize: 1000 }, 'GET')).list as Record<string, unknown>[]).map((l) => [l.lockId, l]),
    );
    expect(listed[full.lockId]).toMatchObject({ featureValue: expect.stringMatching(/^[0-9A-F]+$/), electricQuantity: 71, hasGateway: 1 });
    expect(featuresOf(listed[full.lockId]!.featureValue)).toEqual({
      passcode: true,
      icCard: true,
      fingerprint: false,
      gatewayUnlock: true,
      doorSensor: false,
      face: true,
    });
    expect(featuresOf(listed[bare.lockId]!.featureValue)).toEqual({
      passcode: false,
      icCard: false,
      fingerprint: false,
      gatewayUnlock: false,
      doorSensor: true,
      face: false,
    });

    const detail = await client.call('lock/detail', { lockId: full.lockId }, 'GET');
    expect(detail).toMatchObject({ featureValue: listed[full.lockId]!.featureValue, electricQuantity: 71, hasGateway: 1, timezoneRawOffset: 28_800_000 });

    // Changed by PATCH, the value follows.
    await client.control('PATCH', `/locks/${full.lockId}`, { keypad: false, doorSensor: true, timezoneRawOffset: 19_800_000 });
    const changed = await client.call('lock/detail', { lockId: full.lockId }, 'GET');
    expect(featuresOf(changed.featureValue)).toEqual({ passcode: false, icCard: true, fingerprint: false, gatewayUnlock: true, doorSensor: true, face: true });
    expect(changed.timezoneRawOffset).toBe(19_800_000);

    // A TTHotel account's list shows the same.
    await client.createAccount({ username: 'features-hotel', password: 'secret', kind: 'tthotel' });
    const hotel = await client.as('features-hotel', 'secret');
    const inHotel = await client.lockWithGateway({ account: 'features-hotel', faceModule: false, battery: 33 });
    const byHotel = await hotel.call('lock/listByHotel', PAGE, 'GET');
    expect(byHotel).toMatchObject({ list: [{ lockId: inHotel.lockId, electricQuantity: 33, hasGateway: 1 }] });
    expect(featuresOf((byHotel.list as Record<string, unknown>[])[0]!.featureValue)).toEqual({
      passcode: true,
      icCard: true,
      fingerprint: false,
      gatewayUnlock: true,
      doorSensor: false,
      face: false,
    });
  });

  it('answers -4043 to passcode calls without a keypad, card calls without a card reader, face calls without a face module', async () => {
    const now = Date.now();
    const { lockId: noKeypad } = await client.lockWithGateway({ keypad: false });
    for (const [op, fields, method] of [
      ['keyboardPwd/get', { keyboardPwdType: 2, startDate: now }],
      ['keyboardPwd/add', { keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 }],
      ['keyboardPwd/delete', { keyboardPwdId: 1, deleteType: 2 }],
      ['keyboardPwd/change', { keyboardPwdId: 1, startDate: now, changeType: 2 }],
      ['lock/listKeyboardPwd', PAGE, 'GET'],
    ] as const) {
      expect(await client.call(op, { lockId: noKeypad, ...fields }, method ?? 'POST'), op).toMatchObject({ errcode: -4043 });
    }
    // Its cards work.
    expect(await client.call('identityCard/add', { lockId: noKeypad, cardNumber: '3661413478', addType: 2 })).toHaveProperty('cardId');
    expect(await controlRaw(sim.url, 'POST', `/locks/${noKeypad}/use`, { passcode: '480613' })).toMatchObject({ status: 400 });

    const { lockId: noReader } = await client.lockWithGateway({ cardReader: false });
    for (const [op, fields, method] of [
      ['identityCard/add', { cardNumber: '3661413478', addType: 2 }],
      ['identityCard/addForReversedCardNumber', { cardNumber: '3661413478', addType: 2 }],
      ['identityCard/delete', { cardId: 1, deleteType: 2 }],
      ['identityCard/list', PAGE, 'GET'],
      ['lock/getHotelCardSettings', {}, 'GET'],
      ['lock/addHotelCardDenylist', { cardId: 5 }],
    ] as const) {
      expect(await client.call(op, { lockId: noReader, ...fields }, method ?? 'POST'), op).toMatchObject({ errcode: -4043 });
    }
    expect(await client.call('keyboardPwd/add', { lockId: noReader, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 })).toHaveProperty('keyboardPwdId');
    expect(await controlRaw(sim.url, 'POST', `/locks/${noReader}/use`, { cardNumber: '3661413478' })).toMatchObject({ status: 400 });
    expect(await controlRaw(sim.url, 'POST', `/locks/${noReader}/use`, { cardUid: '04A1B2C3' })).toMatchObject({ status: 400 });

    const { lockId: noFace } = await client.lockWithGateway({ faceModule: false });
    expect(await client.call('face/list', { lockId: noFace, ...PAGE }, 'GET')).toMatchObject({ errcode: -4043 });
    expect(await client.call('face/delete', { lockId: noFace, faceId: 1, type: 2 })).toMatchObject({ errcode: -4043 });
    expect(await controlRaw(sim.url, 'POST', `/locks/${noFace}/use`, { faceId: 1 })).toMatchObject({ status: 400 });

    // PATCH gives the lock a keypad: its passcode calls work.
    await client.control('PATCH', `/locks/${noKeypad}`, { keypad: true });
    expect(await client.call('keyboardPwd/add', { lockId: noKeypad, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 })).toHaveProperty('keyboardPwdId');
  });

  it("keeps generated passcodes to the lock's whole hours: in a half-hour zone (UTC+5:30) they start and end at :30 UTC", async () => {
    const { lockId: india } = await client.lockWithGateway({ timezoneRawOffset: 19_800_000 });
    const { lockId: china } = await client.lockWithGateway();
    const listed = async (lockId: number, id: unknown) =>
      ((await client.call('lock/listKeyboardPwd', { lockId, ...PAGE }, 'GET')).list as Record<string, number>[]).find((p) => p.keyboardPwdId === id)!;
    const start = Date.UTC(2031, 4, 6, 10, 50); // 16:20 in India, 18:50 in China
    const end = Date.UTC(2031, 4, 6, 14, 29); // 19:59 in India

    const period = await client.call('keyboardPwd/get', { lockId: india, keyboardPwdType: 3, startDate: start, endDate: end });
    expect(await listed(india, period.keyboardPwdId)).toMatchObject({
      startDate: Date.UTC(2031, 4, 6, 10, 30),
      endDate: Date.UTC(2031, 4, 6, 13, 30),
      keyboardPwdType: 3,
    });
    const once = await client.call('keyboardPwd/get', { lockId: india, keyboardPwdType: 1, startDate: start });
    expect(await listed(india, once.keyboardPwdId)).toMatchObject({ startDate: Date.UTC(2031, 4, 6, 10, 30), endDate: Date.UTC(2031, 4, 6, 16, 30) });
    const permanent = await client.call('keyboardPwd/get', { lockId: india, keyboardPwdType: 2, startDate: start });
    expect(await listed(india, permanent.keyboardPwdId)).toMatchObject({ startDate: Date.UTC(2031, 4, 6, 10, 30), endDate: 0 });
    // The same request on a UTC+8 lock: whole UTC hours.
    const chinese = await client.call('keyboardPwd/get', { lockId: china, keyboardPwdType: 3, startDate: start, endDate: end });
    expect(await listed(china, chinese.keyboardPwdId)).toMatchObject({ startDate: Date.UTC(2031, 4, 6, 10), endDate: Date.UTC(2031, 4, 6, 14) });
    // Still a year at most.
    expect(await client.call('keyboardPwd/get', { lockId: india, keyboardPwdType: 3, startDate: start, endDate: start + 367 * DAY })).toMatchObject({
      errcode: -3,
    });

    // Changing a used generated passcode keeps the lock's hours too (start floored, end ceiled).
    const now = Date.now();
    const current = await client.call('keyboardPwd/get', { lockId: india, keyboardPwdType: 3, startDate: now - HOUR, endDate: now + 3 * HOUR });
    expect(await client.control('POST', `/locks/${india}/use`, { passcode: current.keyboardPwd })).toMatchObject({ opened: true });
    expect(
      await client.call('keyboardPwd/change', { lockId: india, keyboardPwdId: current.keyboardPwdId, startDate: start, endDate: end, changeType: 2 }),
    ).toMatchObject({ errcode: 0 });
    expect(await listed(india, current.keyboardPwdId)).toMatchObject({ startDate: Date.UTC(2031, 4, 6, 10, 30), endDate: Date.UTC(2031, 4, 6, 14, 30) });
  });

  it('answers -1026, every time, to keyboardPwd/get for the type and whole hours of a generated passcode got and deleted on the lock', async () => {
    const { lockId } = await client.lockWithGateway();
    const { lockId: other } = await client.lockWithGateway();
    const start = Date.UTC(2032, 0, 10, 9, 15);
    const end = Date.UTC(2032, 0, 12, 9, 15);
    const get = (fields: Record<string, unknown>, on = lockId) =>
      client.call('keyboardPwd/get', { lockId: on, keyboardPwdType: 3, startDate: start, endDate: end, ...fields });

    const first = await get({});
    // Got again without a deletion: a new passcode.
    const second = await get({});
    expect(second).toHaveProperty('keyboardPwd');
    expect(await client.call('keyboardPwd/delete', { lockId, keyboardPwdId: first.keyboardPwdId, deleteType: 2 })).toMatchObject({ errcode: 0 });
    for (let i = 0; i < 3; i += 1) expect(await get({})).toMatchObject({ errcode: -1026, errmsg: expect.stringContaining('another whole hour') });
    // The same whole hours however they are asked (minutes are floored), on this lock only.
    expect(await get({ startDate: start + 40 * MINUTE, endDate: end - 10 * MINUTE })).toMatchObject({ errcode: -1026 });
    expect(await get({}, other)).toHaveProperty('keyboardPwd');
    // Another whole hour, or another type, is fine.
    expect(await get({ startDate: start + HOUR })).toHaveProperty('keyboardPwd');
    expect(await get({ keyboardPwdType: 2, endDate: undefined })).toHaveProperty('keyboardPwd');
    // The passcode not deleted is still there.
    const listed = (await client.call('lock/listKeyboardPwd', { lockId, ...PAGE }, 'GET')).list as { keyboardPwdId: number }[];
    expect(listed.map((p) => p.keyboardPwdId)).toContain(second.keyboardPwdId);
    expect(listed.map((p) => p.keyboardPwdId)).not.toContain(first.keyboardPwdId);

    // Deleted in the cloud only (deleteType 1) counts as well; one-time passcodes too.
    const once = await get({ keyboardPwdType: 1, endDate: undefined });
    expect(await client.call('keyboardPwd/delete', { lockId, keyboardPwdId: once.keyboardPwdId, deleteType: 1 })).toMatchObject({ errcode: 0 });
    expect(await get({ keyboardPwdType: 1, endDate: undefined })).toMatchObject({ errcode: -1026 });
    // A deleted custom passcode leaves no such trace.
    const custom = await client.call('keyboardPwd/add', {
      lockId,
      keyboardPwd: '480613',
      keyboardPwdType: 3,
      startDate: Date.UTC(2032, 1, 1, 9),
      endDate: Date.UTC(2032, 1, 3, 9),
      addType: 2,
    });
    expect(await client.call('keyboardPwd/delete', { lockId, keyboardPwdId: custom.keyboardPwdId, deleteType: 2 })).toMatchObject({ errcode: 0 });
    expect(await get({ startDate: Date.UTC(2032, 1, 1, 9), endDate: Date.UTC(2032, 1, 3, 9) })).toHaveProperty('keyboardPwd');
    // The lock keeps what it refuses in its state.
    const { lock } = await client.control<{ lock: { deletedRandomPeriods: unknown[] } }>('GET', `/locks/${lockId}`);
    expect(lock.deletedRandomPeriods).toEqual([
      { keyboardPwdType: 3, startDate: Date.UTC(2032, 0, 10, 9), endDate: Date.UTC(2032, 0, 12, 9) },
      { keyboardPwdType: 1, startDate: Date.UTC(2032, 0, 10, 9), endDate: Date.UTC(2032, 0, 10, 15) },
    ]);
  });

  it('answers -3008 to keyboardPwd/change of a generated passcode never used on the lock, whatever changeType; once used it changes', async () => {
    const { lockId } = await client.lockWithGateway();
    const now = Date.now();
    const got = await client.call('keyboardPwd/get', { lockId, keyboardPwdType: 3, startDate: now - HOUR, endDate: now + 3 * HOUR, keyboardPwdName: 'Guest' });
    const change = (fields: Record<string, unknown>) => client.call('keyboardPwd/change', { lockId, keyboardPwdId: got.keyboardPwdId, ...fields });
    expect(await change({ startDate: now - HOUR, endDate: now + 5 * HOUR, changeType: 2 })).toMatchObject({
      errcode: -3008,
      errmsg: expect.stringContaining('never used'),
    });
    expect(await change({ startDate: now - HOUR, endDate: now + 5 * HOUR, changeType: 1 })).toMatchObject({ errcode: -3008 });
    expect(await change({ keyboardPwdName: 'Renamed' })).toMatchObject({ errcode: -3008 });
    const listed = async () =>
      ((await client.call('lock/listKeyboardPwd', { lockId, ...PAGE }, 'GET')).list as Record<string, unknown>[]).find(
        (p) => p.keyboardPwdId === got.keyboardPwdId,
      )!;
    expect(await listed()).toMatchObject({ keyboardPwdName: 'Guest', endDate: Math.floor((now + 3 * HOUR) / HOUR) * HOUR });

    // A refused try at the door is no use: the lock has not used it.
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: '0000000' })).toMatchObject({ opened: false });
    expect(await change({ startDate: now - HOUR, endDate: now + 5 * HOUR, changeType: 2 })).toMatchObject({ errcode: -3008 });
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: got.keyboardPwd })).toMatchObject({ opened: true });
    expect(await change({ startDate: now - HOUR, endDate: now + 5 * HOUR, changeType: 2, keyboardPwdName: 'Renamed' })).toMatchObject({ errcode: 0 });
    expect(await listed()).toMatchObject({ keyboardPwdName: 'Renamed', endDate: Math.ceil((now + 5 * HOUR) / HOUR) * HOUR });

    // Custom passcodes change as before, used or not.
    const custom = await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 });
    expect(await client.call('keyboardPwd/change', { lockId, keyboardPwdId: custom.keyboardPwdId, newKeyboardPwd: '590724', changeType: 2 })).toMatchObject({
      errcode: 0,
    });
  });

  it('IC cards: addForReversedCardNumber stores the 4 bytes reversed; at the door a card UID opens by the lock byte order', async () => {
    const { lockId } = await client.lockWithGateway();
    // TTLock's own example: asked with 3661413478, listed as 1723612378.
    const reversed = await client.call('identityCard/addForReversedCardNumber', { lockId, cardNumber: '3661413478', cardName: 'Mum', addType: 2 });
    expect(reversed).toEqual({ cardId: expect.any(Number) });
    expect(await client.call('identityCard/list', { lockId, ...PAGE }, 'GET')).toMatchObject({
      total: 1,
      list: [{ cardId: reversed.cardId, cardNumber: '1723612378', cardName: 'Mum' }],
    });
    expect(await client.call('identityCard/addForReversedCardNumber', { lockId, cardNumber: '4294967296', addType: 2 })).toMatchObject({ errcode: -3 });
    expect(await client.call('identityCard/addForReversedCardNumber', { lockId, cardNumber: '12ab', addType: 2 })).toMatchObject({ errcode: -3 });
    expect(await client.control('POST', `/locks/${lockId}/use`, { cardNumber: '1723612378' })).toMatchObject({ opened: true });

    // The card 04A1B2C3: big endian 77705923, little endian (bytes reversed) 3283263748.
    const UID = '04A1B2C3';
    const BIG = '77705923';
    const LITTLE = '3283263748';
    const card = async (order: 'big' | 'little', op: string, cardNumber: string) => {
      const { lockId: id } = await client.lockWithGateway({ cardNumberOrder: order });
      expect(await client.call(op, { lockId: id, cardNumber, addType: 2 }), `${order} ${op} ${cardNumber}`).toHaveProperty('cardId');
      return id;
    };
    // A lock that reads big endian: the number given as read (add), or a little-endian reader's number reversed.
    const big1 = await card('big', 'identityCard/add', BIG);
    expect(await client.useCard(big1, UID.toLowerCase())).toMatchObject({
      opened: true,
      cardNumber: BIG,
      record: { recordType: 7, success: 1, keyboardPwd: BIG },
    });
    const big2 = await card('big', 'identityCard/addForReversedCardNumber', LITTLE);
    expect(await client.useCard(big2, UID)).toMatchObject({ opened: true, cardNumber: BIG });
    const big3 = await card('big', 'identityCard/add', LITTLE);
    expect(await client.useCard(big3, UID)).toMatchObject({ opened: false, outcome: 'unknown', cardNumber: BIG });
    // A lock that reads little endian: the other way round.
    const little1 = await card('little', 'identityCard/addForReversedCardNumber', BIG);
    expect(await client.useCard(little1, UID)).toMatchObject({ opened: true, cardNumber: LITTLE, record: { keyboardPwd: LITTLE } });
    const little2 = await card('little', 'identityCard/add', BIG);
    expect(await client.useCard(little2, UID)).toMatchObject({ opened: false, cardNumber: LITTLE });
    const little3 = await card('little', 'identityCard/add', LITTLE);
    expect(await client.useCard(little3, UID)).toMatchObject({ opened: true });
    // { cardNumber } is still the number as the lock reads it.
    expect(await client.control('POST', `/locks/${little1}/use`, { cardNumber: LITTLE })).toMatchObject({ opened: true });
    // A lock's byte order can be changed: the same card then reads as the other number.
    await client.control('PATCH', `/locks/${little1}`, { cardNumberOrder: 'big' });
    expect(await client.useCard(little1, UID)).toMatchObject({ opened: false, cardNumber: BIG });
    expect(await controlRaw(sim.url, 'POST', `/locks/${little1}/use`, { cardUid: '04A1B2' })).toMatchObject({ status: 400 });
  });

  it('lists the locks linked with a gateway (gateway/listLock), and drops a lock not heard for 30 minutes', async () => {
    await withSim({}, async (c) => {
      const { lockId: a, gatewayId } = await c.lockWithGateway({ name: 'Room 101', alias: 'Front' });
      const { lock: b } = await c.control<{ lock: { lockId: number; lockMac: string } }>('POST', '/locks', { name: 'Room 102', gatewayId });
      const { lockId: elsewhere } = await c.lockWithGateway();
      // b also hears a second gateway, better placed.
      const { gateway: second } = await c.control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
      await c.control('POST', `/locks/${a}/pair`, { gatewayId: second.gatewayId });

      const listed = await c.call('gateway/listLock', { gatewayId }, 'GET');
      expect(listed).toEqual({
        list: [
          { lockId: a, lockMac: expect.any(String), lockName: 'SIM Room 101', lockAlias: 'SIM Front', rssi: -60, updateDate: expect.any(Number) },
          { lockId: b.lockId, lockMac: b.lockMac, lockName: 'SIM Room 102', lockAlias: 'SIM Room 102', rssi: -60, updateDate: expect.any(Number) },
        ],
      });
      expect(await c.call('gateway/listLock', { gatewayId: second.gatewayId }, 'GET')).toMatchObject({ list: [{ lockId: a, rssi: -68 }] });
      expect(JSON.stringify(listed)).not.toContain(String(elsewhere));
      expect(await c.call('gateway/listLock', { gatewayId: 999_999 }, 'GET')).toMatchObject({ errcode: -4037 });
      expect(await c.call('gateway/listLock', {}, 'GET')).toMatchObject({ errcode: -3 });

      // b stops answering; 31 minutes later the gateway no longer lists it.
      await c.control('PATCH', `/locks/${b.lockId}`, { online: false });
      const offsetMs = 31 * MINUTE;
      await c.control('PUT', '/clock', { offsetMs });
      c.clockOffsetMs = offsetMs;
      expect(await c.call('gateway/listLock', { gatewayId }, 'GET')).toMatchObject({ list: [{ lockId: a }] });
      expect(((await c.call('gateway/listLock', { gatewayId }, 'GET')).list as unknown[]).length).toBe(1);
      expect(
        ((await c.call('gateway/list', PAGE, 'GET')).list as { gatewayId: number; lockNum: number }[]).find((g) => g.gatewayId === gatewayId),
      ).toMatchObject({ lockNum: 1 });
    });
  });
});

describe('lock simulator: door sensors, WiFi locks and the notifications to the callback URL', () => {
  it('answers doorSensor/query for a lock with a door sensor (-4043 without), and posts the door sensor notification', async () => {
    const receiver = await startReceiver();
    try {
      await withSim({ callbackUrl: receiver.url }, async (c, sim) => {
        const { lockId } = await c.lockWithGateway({ doorSensor: true });
        const { lockId: without } = await c.lockWithGateway();
        const sensor = await c.call('doorSensor/query', { lockId });
        expect(sensor).toEqual({
          doorSensorId: expect.any(Number),
          name: expect.stringMatching(/^SIM /),
          electricQuantity: expect.any(Number),
          version: expect.any(String),
          mac: expect.stringMatching(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/),
          number: expect.stringMatching(/^DS2_/),
          doorNotClosedWarningTime: 0,
        });
        // TTLock documents doorSensor/query as a form POST: sent as a GET it is refused (HTTP 405, -3), logged, not counted.
        const usedBefore = (await c.accounts()).find((a) => a.default)!.calls.total;
        const asGet = await fetch(
          `${sim.url}/v3/doorSensor/query?${new URLSearchParams({ clientId: SIM_DEFAULTS.clientId, accessToken: c.token, lockId: String(lockId), date: String(Date.now()) }).toString()}`,
        );
        expect(asGet.status).toBe(405);
        expect(asGet.headers.get('allow')).toBe('POST');
        expect(await asGet.json()).toMatchObject({ errcode: -3, errmsg: expect.stringContaining('doorSensor/query is a POST') });
        expect((await c.accounts()).find((a) => a.default)!.calls.total).toBe(usedBefore);
        expect((await c.calls()).calls.filter((call) => call.path === 'doorSensor/query').map((call) => [call.method, call.errcode])).toEqual([
          ['POST', 0],
          ['GET', -3],
        ]);
        // So is every other call TTLock documents as a POST; its GET reads take a POST too.
        expect(await c.call('keyboardPwd/get', { lockId, keyboardPwdType: 2, startDate: Date.now() }, 'GET')).toMatchObject({ errcode: -3 });
        expect(await c.call('lock/unlock', { lockId }, 'GET')).toMatchObject({ errcode: -3 });
        expect(await c.call('lock/detail', { lockId })).toMatchObject({ lockId });
        expect(await c.call('doorSensor/query', { lockId: without })).toMatchObject({ errcode: -4043 });

        const states = ['open', 'closed', 'left_open', 'left_open_long'] as const;
        for (const state of states)
          expect(await c.door(lockId, state)).toMatchObject({
            fields: { recordType: String(['closed', 'open', 'left_open', 'left_open_long'].indexOf(state)) },
            delivery: { notifyType: '7' },
          });
        await receiver.waitFor(4);
        expect(receiver.received.map((r) => r.fields)).toEqual(
          states.map((state) => ({
            notifyType: '7',
            doorSensorId: String(sensor.doorSensorId),
            mac: sensor.mac,
            name: sensor.name,
            recordType: { closed: '0', open: '1', left_open: '2', left_open_long: '3' }[state],
          })),
        );
        expect(receiver.received[0]!.contentType).toBe('application/x-www-form-urlencoded');
        expect((await c.control<{ lock: { doorState: string } }>('GET', `/locks/${lockId}`)).lock.doorState).toBe('left_open_long');
        expect(await controlRaw(sim.url, 'POST', `/locks/${without}/door`, { state: 'open' })).toMatchObject({ status: 400 });
        expect(await controlRaw(sim.url, 'POST', `/locks/${lockId}/door`, { state: 'ajar' })).toMatchObject({ status: 400 });
        // A door sensor fitted later: the lock answers for it from then on.
        await c.control('PATCH', `/locks/${without}`, { doorSensor: true });
        expect(await c.call('doorSensor/query', { lockId: without })).toMatchObject({ doorSensorId: expect.any(Number) });
        expect((await c.call('doorSensor/query', { lockId: without })).doorSensorId).not.toBe(sensor.doorSensorId);
      });
    } finally {
      await receiver.close();
    }
  });

  it("posts a gateway's online and offline notification, and a WiFi lock's; retries them like records; /sim/notify posts any fields", async () => {
    const receiver = await startReceiver([503]);
    try {
      await withSim({ callbackUrl: receiver.url, callbackRetryDelaysMs: [50, 100] }, async (c, sim) => {
        await c.createAccount({ username: 'wifi-owner', password: 'secret' });
        const { gatewayId, lockId: paired } = await c.lockWithGateway();
        const { gateway } = await c.control<{ gateway: { gatewayMac: string; gatewayName: string; networkName: string } }>('PATCH', `/gateways/${gatewayId}`, {
          online: false,
        });
        // The same state again is no change: nothing is posted.
        await c.control('PATCH', `/gateways/${gatewayId}`, { online: false });
        await c.control('PATCH', `/gateways/${gatewayId}`, { online: true });
        // A lock that is not a WiFi lock says nothing of itself.
        await c.control('PATCH', `/locks/${paired}`, { online: false });
        await c.control('PATCH', `/locks/${paired}`, { online: true });
        const { lock: wifi } = await c.control<{ lock: { lockId: number; lockMac: string; lockAlias: string } }>('POST', '/locks', {
          account: 'wifi-owner',
          wifi: true,
          networkName: 'Hotel-Guest',
        });
        await c.control('PATCH', `/locks/${wifi.lockId}`, { online: false });
        await c.control('PATCH', `/locks/${wifi.lockId}`, { online: true });
        await c.notify({ notifyType: 99, something: 'new', flag: true });

        // 5 notifications, the first posted twice (503, then delivered after the others).
        await receiver.waitFor(6);
        const all = receiver.received.map((r) => r.fields);
        const posted = [...new Map(all.map((f) => [JSON.stringify(f), f])).values()];
        expect(all.filter((f) => JSON.stringify(f) === JSON.stringify(all[0]))).toHaveLength(2);
        const gatewayFields = {
          notifyType: '2',
          gatewayId: String(gatewayId),
          gatewayName: gateway.gatewayName,
          gatewayMac: gateway.gatewayMac,
          gatewayVersion: '2',
          networkName: gateway.networkName,
        };
        const wifiFields = {
          notifyType: '3',
          lockId: String(wifi.lockId),
          lockAlias: wifi.lockAlias,
          lockMac: wifi.lockMac,
          networkName: 'Hotel-Guest',
          admin: 'wifi-owner',
        };
        expect(posted).toEqual([
          { ...gatewayFields, isOnline: '0' },
          { ...gatewayFields, isOnline: '1' },
          { ...wifiFields, isOnline: '0' },
          { ...wifiFields, isOnline: '1' },
          { notifyType: '99', something: 'new', flag: 'true' },
        ]);
        const deliveries = await c.callbacks();
        expect(deliveries.map((d) => [d.notifyType, d.status, d.attempts, d.gatewayId, d.lockId])).toEqual([
          ['2', 'delivered', 2, gatewayId, null],
          ['2', 'delivered', 1, gatewayId, null],
          ['3', 'delivered', 1, null, wifi.lockId],
          ['3', 'delivered', 1, null, wifi.lockId],
          ['99', 'delivered', 1, null, null],
        ]);
        expect(await controlRaw(sim.url, 'POST', '/notify', { fields: 'notifyType=1' })).toMatchObject({ status: 400 });
        await c.control('PUT', '/config', { callbackUrl: null });
        expect(await controlRaw(sim.url, 'POST', '/notify', { fields: { notifyType: 1 } })).toMatchObject({ status: 400 });
      });
    } finally {
      await receiver.close();
    }
  });

  it('WiFi locks take writes without a gateway (latency, then -3036 when offline) and upload their records themselves', async () => {
    await withSim({ latencyMs: 5 }, async (c) => {
      const { lock } = await c.control<{ lock: { lockId: number; reachable: boolean } }>('POST', '/locks', { wifi: true });
      const lockId = lock.lockId;
      expect(lock.reachable).toBe(true);
      expect(await c.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2, keyboardPwdName: 'Guest' })).toHaveProperty(
        'keyboardPwdId',
      );
      expect(await c.call('lock/unlock', { lockId })).toMatchObject({ errcode: 0 });
      expect(await c.control('POST', `/locks/${lockId}/use`, { passcode: '480613' })).toMatchObject({ opened: true });
      expect(await c.call('lockRecord/list', { lockId, ...PAGE }, 'GET')).toMatchObject({
        total: 2,
        list: [{ recordType: 4, username: 'Guest' }, { recordType: 12 }],
      });

      await c.control('PATCH', `/locks/${lockId}`, { online: false });
      expect(await c.call('identityCard/add', { lockId, cardNumber: '3661413478', addType: 2 })).toMatchObject({ errcode: -3036 });
      // Its records wait in the lock, then go up when it is back.
      await c.control('POST', `/locks/${lockId}/use`, { passcode: '480613' });
      expect(await c.call('lockRecord/list', { lockId, ...PAGE }, 'GET')).toMatchObject({ total: 2 });
      await c.control('PATCH', `/locks/${lockId}`, { online: true });
      expect(await c.call('lockRecord/list', { lockId, ...PAGE }, 'GET')).toMatchObject({ total: 3 });

      // The same lock as a plain lock without a gateway: -2012.
      await c.control('PATCH', `/locks/${lockId}`, { wifi: false });
      expect(await c.call('identityCard/add', { lockId, cardNumber: '3661413478', addType: 2 })).toMatchObject({ errcode: -2012 });
    });
  });
});
