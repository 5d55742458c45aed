import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simFaceFeatureData } from './faces';
import { startLockSim, type LockSim, type LockSimOptions } from './server';
import { SimClient, startReceiver } from './test-client';

const HOUR = 3_600_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A PNG of its own (random bytes after the signature: the simulator looks at nothing else). */
const png = (size = 1024) => Buffer.concat([PNG_SIGNATURE, randomBytes(size - PNG_SIGNATURE.length)]);

/** A simulator for one test, closed afterwards. */
async function withSim<T>(options: LockSimOptions, run: (client: SimClient, sim: LockSim) => Promise<T>): Promise<T> {
  const sim = await startLockSim(options);
  try {
    const client = new SimClient(sim.url);
    await client.login();
    return await run(client, sim);
  } finally {
    await sim.close();
  }
}

describe('lock simulator: the TTLock surface', () => {
  let sim: LockSim;
  let client: SimClient;

  beforeAll(async () => {
    sim = await startLockSim({});
    client = new SimClient(sim.url);
    await client.login();
  });
  afterAll(() => sim.close());

  it('labels everything it answers as simulated', async () => {
    const response = await fetch(`${sim.url}/sim`);
    expect(response.headers.get('x-simulated')).toBe('true');
    expect(await response.json()).toMatchObject({ simulated: true });
    const ttlock = await fetch(`${sim.url}/v3/lock/list?clientId=x`);
    expect(ttlock.headers.get('x-simulated')).toBe('true');
    const { lockId } = await client.lockWithGateway({ name: 'Room 9' });
    const detail = await client.call('lock/detail', { lockId }, 'GET');
    expect(detail.lockName).toBe('SIM Room 9');
  });

  it('grants tokens for the MD5 of the password only, and refreshes them', async () => {
    const c = new SimClient(sim.url);
    expect(await c.login({ clientSecret: 'wrong' })).toMatchObject({ errcode: 10001 });
    expect(await c.login({ clientId: 'nobody' })).toMatchObject({ errcode: 10000 });
    expect(await c.login({ password: 'sim-password' })).toMatchObject({ errcode: 30005 });
    expect(await c.login({ password: 'e10adc3949ba59abbe56e057f20f883e' })).toMatchObject({ errcode: 10007 });
    const granted = await c.login();
    expect(granted).toMatchObject({ uid: expect.any(Number), expires_in: 7_776_000 });
    expect(await c.call('lock/list', { pageNo: 1, pageSize: 20 }, 'GET')).toHaveProperty('list');

    const oldToken = c.token;
    const refreshed = await c.form('/oauth2/token', {
      clientId: 'sim-client-id',
      clientSecret: 'sim-client-secret',
      grant_type: 'refresh_token',
      refresh_token: c.refreshToken,
    });
    expect(refreshed).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: 7_776_000 });
    expect(await c.call('lock/list', { pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({ errcode: 10003 });
    c.token = String(refreshed.access_token);
    expect(await c.call('lock/list', { pageNo: 1, pageSize: 20 }, 'GET')).toHaveProperty('list');
    expect(oldToken).not.toBe(c.token);
    // A refresh token is good once.
    expect(
      await c.form('/oauth2/token', {
        clientId: 'sim-client-id',
        clientSecret: 'sim-client-secret',
        grant_type: 'refresh_token',
        refresh_token: c.refreshToken,
      }),
    ).toMatchObject({ errcode: 10011 });
  });

  it('checks clientId, accessToken and date on every call', async () => {
    expect(await client.call('lock/list', { pageNo: 1, pageSize: 20, clientId: 'someone-else' }, 'GET')).toMatchObject({ errcode: 10000 });
    expect(await client.call('lock/list', { pageNo: 1, pageSize: 20, accessToken: 'f'.repeat(32) }, 'GET')).toMatchObject({ errcode: 10003 });
    expect(await client.call('lock/list', { pageNo: 1, pageSize: 20, date: Date.now() - 6 * 60_000 }, 'GET')).toMatchObject({ errcode: 80000 });
    expect(await client.call('lock/list', { pageNo: 1, pageSize: 20, date: Date.now() + 6 * 60_000 }, 'GET')).toMatchObject({ errcode: 80000 });
    expect(await client.call('lock/list', { pageNo: 1, pageSize: 20, date: undefined }, 'GET')).toMatchObject({ errcode: 80000 });
    expect(await client.call('lock/list', { pageNo: 1, pageSize: 20, date: Date.now() - 4 * 60_000 }, 'GET')).toHaveProperty('list');
  });

  it('expired tokens answer 10004', async () => {
    const c = new SimClient(sim.url);
    await c.login();
    await c.control('POST', '/tokens/expire');
    expect(await c.call('lock/list', { pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({ errcode: 10004 });
    await client.login();
  });

  it('wants form-encoded bodies and bounded pages', async () => {
    const response = await fetch(`${sim.url}/v3/lock/list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'sim-client-id', accessToken: client.token, date: Date.now(), pageNo: 1, pageSize: 20 }),
    });
    expect(await response.json()).toMatchObject({ errcode: -3 });
    const { lockId } = await client.lockWithGateway();
    expect(await client.call('lock/listKeyboardPwd', { lockId, pageNo: 1, pageSize: 201 }, 'GET')).toMatchObject({ errcode: -3 });
  });

  it('refuses unknown locks with -1003', async () => {
    expect(await client.call('lock/detail', { lockId: 1 }, 'GET')).toMatchObject({ errcode: -1003 });
    expect(await client.call('keyboardPwd/add', { lockId: 1, keyboardPwd: '480613', addType: 2, keyboardPwdType: 2 })).toMatchObject({ errcode: -1003 });
  });

  it('puts a custom passcode on the lock through the gateway (addType 2), and only in the cloud with addType 1', async () => {
    const { lockId } = await client.lockWithGateway();
    const viaGateway = await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdName: 'Guest 1', keyboardPwdType: 2, addType: 2 });
    expect(viaGateway).toEqual({ keyboardPwdId: expect.any(Number) });
    const bluetoothOnly = await client.call('keyboardPwd/add', { lockId, keyboardPwd: '5709124', keyboardPwdName: 'Guest 2', keyboardPwdType: 2 });
    expect(bluetoothOnly).toEqual({ keyboardPwdId: expect.any(Number) });

    // Both are in the cloud's list...
    const list = await client.call('lock/listKeyboardPwd', { lockId, pageNo: 1, pageSize: 20, orderBy: 1 }, 'GET');
    expect((list.list as { keyboardPwd: string; isCustom: number }[]).map((p) => [p.keyboardPwd, p.isCustom]).sort()).toEqual([
      ['480613', 1],
      ['5709124', 1],
    ]);
    // ...but only the first is on the lock.
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: '480613' })).toMatchObject({ simulated: true, opened: true, outcome: 'opened' });
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: '5709124' })).toMatchObject({ opened: false, outcome: 'unknown' });
  });

  it('refuses passcodes that are too simple, of a wrong length, or already there', async () => {
    const { lockId } = await client.lockWithGateway();
    for (const code of ['123456', '111111', '000000', '987654', '3456']) {
      expect(await client.call('keyboardPwd/add', { lockId, keyboardPwd: code, keyboardPwdType: 2, addType: 2 }), code).toMatchObject({ errcode: -2032 });
    }
    for (const code of ['480', '4806139275', '48o613']) {
      expect(await client.call('keyboardPwd/add', { lockId, keyboardPwd: code, keyboardPwdType: 2, addType: 2 }), code).toMatchObject({ errcode: -3006 });
    }
    expect(await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 })).toHaveProperty('keyboardPwdId');
    expect(await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 })).toMatchObject({ errcode: -3007 });
  });

  it('fills up: 250 custom passcodes by default (-3009), and cards (-4056)', async () => {
    const { lockId } = await client.lockWithGateway({ capacity: { passcodes: 2, cards: 1, faces: 1 } });
    const lock = await client.control<{ lock: { capacity: { passcodes: number } } }>('GET', `/locks/${lockId}`);
    expect(lock.lock.capacity).toEqual({ passcodes: 2, cards: 1, faces: 1 });
    expect(await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 })).toHaveProperty('keyboardPwdId');
    expect(await client.call('keyboardPwd/add', { lockId, keyboardPwd: '590724', keyboardPwdType: 2, addType: 2 })).toHaveProperty('keyboardPwdId');
    expect(await client.call('keyboardPwd/add', { lockId, keyboardPwd: '602835', keyboardPwdType: 2, addType: 2 })).toMatchObject({ errcode: -3009 });
    expect(await client.call('identityCard/add', { lockId, cardNumber: '3661413478', cardName: 'Card 1', addType: 2 })).toHaveProperty('cardId');
    expect(await client.call('identityCard/add', { lockId, cardNumber: '1723612378', cardName: 'Card 2', addType: 2 })).toMatchObject({ errcode: -4056 });
    expect(await client.call('face/add', { lockId, featureData: await client.featureData(lockId, png()), name: 'Face 1', addType: 2 })).toHaveProperty(
      'faceId',
    );
    expect(await client.call('face/add', { lockId, featureData: await client.featureData(lockId, png()), name: 'Face 2', addType: 2 })).toMatchObject({
      errcode: -4056,
    });

    const { lockId: full } = await client.lockWithGateway();
    expect((await client.control<{ lock: { capacity: unknown } }>('GET', `/locks/${full}`)).lock.capacity).toEqual({ passcodes: 250, cards: 1000, faces: 100 });
  });

  it('answers -3036 for an offline lock, -3002 for an offline gateway, -2012 without a gateway', async () => {
    const { lockId, gatewayId } = await client.lockWithGateway();
    const add = () => client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 });
    await client.control('PATCH', `/locks/${lockId}`, { online: false });
    expect(await add()).toMatchObject({ errcode: -3036 });
    await client.control('PATCH', `/locks/${lockId}`, { online: true });
    await client.control('PATCH', `/gateways/${gatewayId}`, { online: false });
    expect(await add()).toMatchObject({ errcode: -3002 });
    await client.control('PATCH', `/gateways/${gatewayId}`, { online: true });
    expect(await add()).toHaveProperty('keyboardPwdId');

    const { lock } = await client.control<{ lock: { lockId: number } }>('POST', '/locks', {});
    expect(await client.call('keyboardPwd/add', { lockId: lock.lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 })).toMatchObject({
      errcode: -2012,
    });
    expect(await client.call('lock/unlock', { lockId: lock.lockId })).toMatchObject({ errcode: -2012 });
    // Random passcodes need no gateway.
    expect(await client.call('keyboardPwd/get', { lockId: lock.lockId, keyboardPwdType: 2, startDate: Date.now() })).toHaveProperty('keyboardPwd');
  });

  it('answers -3003 when two writes hit one gateway at once', async () => {
    const { lockId, gatewayId } = await client.lockWithGateway({ latencyMs: 3_000 });
    const first = client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 });
    // The second write leaves once the first holds the gateway.
    const busy = async () =>
      (await client.control<{ gateways: { gatewayId: number; busy: boolean }[] }>('GET', '/gateways')).gateways.find((g) => g.gatewayId === gatewayId)?.busy;
    while (!(await busy())) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await client.call('identityCard/add', { lockId, cardNumber: '3661413478', addType: 2 });
    expect(second).toMatchObject({ errcode: -3003 });
    expect(await first).toHaveProperty('keyboardPwdId');

    await client.control('PATCH', `/locks/${lockId}`, { latencyMs: null });
    await client.control('PATCH', `/gateways/${gatewayId}`, { busy: true });
    expect(await client.call('lock/unlock', { lockId })).toMatchObject({ errcode: -3003 });
    await client.control('PATCH', `/gateways/${gatewayId}`, { busy: false });
    expect(await client.call('lock/unlock', { lockId })).toMatchObject({ errcode: 0 });
  });

  it('turns remote unlock off (-4043) and freezes locks (-2025)', async () => {
    const { lockId } = await client.lockWithGateway({ remoteUnlock: false });
    expect(await client.call('lock/unlock', { lockId })).toMatchObject({ errcode: -4043 });
    await client.control('PATCH', `/locks/${lockId}`, { remoteUnlock: true, frozen: true });
    expect(await client.call('lock/unlock', { lockId })).toMatchObject({ errcode: -2025 });
    expect(await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 })).toMatchObject({ errcode: -2025 });
  });

  it('fails the next call with a chosen code, and every call while a lock failure is set', async () => {
    const { lockId } = await client.lockWithGateway();
    await client.control('POST', '/failures/next', { code: -3037, op: 'keyboardPwd/add', lockId });
    // Another operation is not affected.
    expect(await client.call('lock/listKeyboardPwd', { lockId, pageNo: 1, pageSize: 20 }, 'GET')).toHaveProperty('list');
    expect(await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 })).toMatchObject({ errcode: -3037 });
    expect(await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 })).toHaveProperty('keyboardPwdId');

    await client.control('POST', `/locks/${lockId}/failures`, { code: -3036, ops: ['identityCard/add'] });
    for (let i = 0; i < 2; i += 1)
      expect(await client.call('identityCard/add', { lockId, cardNumber: '3661413478', addType: 2 })).toMatchObject({ errcode: -3036 });
    await client.control('DELETE', `/locks/${lockId}/failures`);
    expect(await client.call('identityCard/add', { lockId, cardNumber: '3661413478', addType: 2 })).toHaveProperty('cardId');
  });

  it('generates random passcodes to the hour; a one-time code opens once', async () => {
    const { lockId } = await client.lockWithGateway();
    const start = Date.now();
    const got = await client.call('keyboardPwd/get', { lockId, keyboardPwdType: 1, keyboardPwdName: 'Visitor', startDate: start });
    expect(String(got.keyboardPwd)).toMatch(/^\d{6,9}$/);
    const list = await client.call('lock/listKeyboardPwd', { lockId, pageNo: 1, pageSize: 20 }, 'GET');
    const entry = (list.list as Record<string, number>[])[0]!;
    expect(entry).toMatchObject({
      keyboardPwdId: got.keyboardPwdId,
      keyboardPwdType: 1,
      isCustom: 0,
      startDate: Math.floor(start / HOUR) * HOUR,
      endDate: Math.floor(start / HOUR) * HOUR + 6 * HOUR,
    });

    const first = await client.control<{ opened: boolean; record: { recordId: number } }>('POST', `/locks/${lockId}/use`, { passcode: got.keyboardPwd });
    const second = await client.control<{ opened: boolean; outcome: string; record: { recordId: number } }>('POST', `/locks/${lockId}/use`, {
      passcode: got.keyboardPwd,
    });
    expect(first.opened).toBe(true);
    expect(second).toMatchObject({ opened: false, outcome: 'used' });
    expect(second.record.recordId).not.toBe(first.record.recordId);

    const records = await client.call('lockRecord/list', { lockId, pageNo: 1, pageSize: 20 }, 'GET');
    expect((records.list as Record<string, unknown>[]).map((r) => [r.recordType, r.success, r.username])).toEqual([
      [4, 0, 'Visitor'],
      [4, 1, 'Visitor'],
    ]);
  });

  it('decides validity by the lock clock', async () => {
    const { lockId } = await client.lockWithGateway();
    const now = Date.now();
    await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 3, startDate: now + HOUR, endDate: now + 3 * HOUR, addType: 2 });
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: '480613' })).toMatchObject({ opened: false, outcome: 'not_yet_valid' });
    await client.control('PATCH', `/locks/${lockId}`, { clockOffsetMs: 2 * HOUR });
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: '480613' })).toMatchObject({ opened: true });
    await client.control('PATCH', `/locks/${lockId}`, { clockOffsetMs: 4 * HOUR });
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: '480613' })).toMatchObject({ opened: false, outcome: 'expired' });

    // A random period passcode not used within 24 hours of its start is suspended by the lock.
    await client.control('PATCH', `/locks/${lockId}`, { clockOffsetMs: 0 });
    const got = await client.call('keyboardPwd/get', { lockId, keyboardPwdType: 3, startDate: now, endDate: now + 72 * HOUR });
    await client.control('PATCH', `/locks/${lockId}`, { clockOffsetMs: 25 * HOUR });
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: got.keyboardPwd })).toMatchObject({ opened: false, outcome: 'suspended' });
  });

  it('changes a passcode validity through the gateway (only with startDate), random ones to whole hours once used, never a one-time one', async () => {
    const { lockId, gatewayId } = await client.lockWithGateway({ latencyMs: 0 });
    const now = Date.now();
    const custom = await client.call('keyboardPwd/add', {
      lockId,
      keyboardPwd: '480613',
      keyboardPwdType: 3,
      startDate: now - 2 * HOUR,
      endDate: now + 2 * HOUR,
      addType: 2,
    });
    const listed = async (id: unknown) =>
      (
        (await client.call('lock/listKeyboardPwd', { lockId, pageNo: 1, pageSize: 20 }, 'GET')).list as {
          keyboardPwdId: number;
          startDate: number;
          endDate: number;
          keyboardPwdType: number;
        }[]
      ).find((p) => p.keyboardPwdId === id)!;

    // Without startDate the call succeeds and changes nothing (TTLock's trap).
    expect(await client.call('keyboardPwd/change', { lockId, keyboardPwdId: custom.keyboardPwdId, endDate: now - HOUR, changeType: 2 })).toMatchObject({
      errcode: 0,
    });
    expect((await listed(custom.keyboardPwdId)).endDate).toBe(now + 2 * HOUR);
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: '480613' })).toMatchObject({ opened: true });

    expect(
      await client.call('keyboardPwd/change', { lockId, keyboardPwdId: custom.keyboardPwdId, startDate: now - 2 * HOUR, endDate: now - 60_000, changeType: 2 }),
    ).toMatchObject({ errcode: 0 });
    expect(await listed(custom.keyboardPwdId)).toMatchObject({ startDate: now - 2 * HOUR, endDate: now - 60_000, keyboardPwdType: 3 });
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: '480613' })).toMatchObject({ opened: false, outcome: 'expired' });

    const random = await client.call('keyboardPwd/get', { lockId, keyboardPwdType: 2, startDate: now });
    // A generated passcode changes only once it has been used on the lock (-3008 before: see lock-rules.integration.test.ts).
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: random.keyboardPwd })).toMatchObject({ opened: true });
    const end = now + 5 * HOUR + 60_000;
    expect(await client.call('keyboardPwd/change', { lockId, keyboardPwdId: random.keyboardPwdId, startDate: now, endDate: end, changeType: 2 })).toMatchObject(
      { errcode: 0 },
    );
    expect(await listed(random.keyboardPwdId)).toMatchObject({
      startDate: Math.floor(now / HOUR) * HOUR,
      endDate: Math.ceil(end / HOUR) * HOUR,
      keyboardPwdType: 3,
    });

    const once = await client.call('keyboardPwd/get', { lockId, keyboardPwdType: 1, startDate: now });
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: once.keyboardPwd })).toMatchObject({ opened: true });
    expect(
      await client.call('keyboardPwd/change', { lockId, keyboardPwdId: once.keyboardPwdId, startDate: now, endDate: now + HOUR, changeType: 2 }),
    ).toMatchObject({ errcode: -3 });
    expect(await client.call('keyboardPwd/change', { lockId, keyboardPwdId: 999_999_999, startDate: now, endDate: now + HOUR, changeType: 2 })).toMatchObject({
      errcode: -2009,
    });

    await client.control('PATCH', `/gateways/${gatewayId}`, { online: false });
    expect(
      await client.call('keyboardPwd/change', { lockId, keyboardPwdId: random.keyboardPwdId, startDate: now, endDate: now + HOUR, changeType: 2 }),
    ).toMatchObject({ errcode: -3002 });
    expect((await listed(random.keyboardPwdId)).endDate).toBe(Math.ceil(end / HOUR) * HOUR);
  });

  it('cards and faces: add, use, list, delete (deleteType 1 leaves the lock as it is)', async () => {
    const { lockId } = await client.lockWithGateway();
    const card = await client.call('identityCard/add', {
      lockId,
      cardNumber: '3661413478',
      cardName: 'Room card',
      startDate: Date.now() - HOUR,
      endDate: Date.now() + HOUR,
      addType: 2,
    });
    expect(await client.control('POST', `/locks/${lockId}/use`, { cardNumber: '3661413478' })).toMatchObject({
      opened: true,
      record: { recordType: 7, success: 1, username: 'Room card' },
    });
    expect(await client.control('POST', `/locks/${lockId}/use`, { cardNumber: '1111111111' })).toMatchObject({ opened: false, outcome: 'unknown' });
    const cards = await client.call('identityCard/list', { lockId, pageNo: 1, pageSize: 20 }, 'GET');
    expect(cards).toMatchObject({ total: 1, list: [{ cardId: card.cardId, cardNumber: '3661413478', cardName: 'Room card' }] });
    // Through the cloud only: the lock keeps the card.
    expect(await client.call('identityCard/delete', { lockId, cardId: card.cardId, deleteType: 1 })).toMatchObject({ errcode: 0 });
    expect(await client.call('identityCard/list', { lockId, pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({ total: 0 });
    expect(await client.control('POST', `/locks/${lockId}/use`, { cardNumber: '3661413478' })).toMatchObject({ opened: true });
    expect(await client.call('identityCard/delete', { lockId, cardId: card.cardId, deleteType: 2 })).toMatchObject({ errcode: -1021 });

    const face = await client.call('face/add', { lockId, featureData: await client.featureData(lockId, png()), name: 'Guest face', type: 1, addType: 2 });
    expect(await client.control('POST', `/locks/${lockId}/use`, { faceId: face.faceId })).toMatchObject({ opened: true });
    expect(await client.call('face/list', { lockId, pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({ list: [{ faceId: face.faceId, name: 'Guest face' }] });
    expect(await client.call('face/delete', { lockId, faceId: face.faceId, type: 2 })).toMatchObject({ errcode: 0 });
    expect(await client.control('POST', `/locks/${lockId}/use`, { faceId: face.faceId })).toMatchObject({ opened: false });
    expect(await client.call('face/delete', { lockId, faceId: face.faceId, type: 2 })).toMatchObject({ errcode: -3 });

    const pwd = await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 });
    expect(await client.call('keyboardPwd/delete', { lockId, keyboardPwdId: pwd.keyboardPwdId, deleteType: 2 })).toMatchObject({ errcode: 0 });
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: '480613' })).toMatchObject({ opened: false });
    expect(await client.call('keyboardPwd/delete', { lockId, keyboardPwdId: pwd.keyboardPwdId, deleteType: 2 })).toMatchObject({ errcode: -2009 });
  });

  it('makes a face photo into feature data for one lock (multipart), and face/add takes only that', async () => {
    const { lockId } = await client.lockWithGateway();
    const { lockId: other } = await client.lockWithGateway();
    const photo = png(4096);
    const answer = await client.multipart('face/getFeatureDataByPhoto', { lockId }, { bytes: photo, type: 'image/png', name: 'guest.png' });
    // Deterministic: the lock and the photo's bytes; another lock gets other feature data.
    expect(answer).toEqual({ featureData: simFaceFeatureData(lockId, photo) });
    expect(answer.featureData).toMatch(/^[0-9A-F]{80}$/);
    expect(await client.featureData(lockId, photo)).toBe(answer.featureData);
    const forOther = await client.featureData(other, photo);
    expect(forOther).not.toBe(answer.featureData);

    // face/add refuses feature data not made for this lock: garbage, a photo hash, another lock's.
    const last = String(answer.featureData).slice(79);
    for (const featureData of ['F0E41DEAEDF7', 'a'.repeat(64), forOther, `${String(answer.featureData).slice(0, 79)}${last === '0' ? '1' : '0'}`]) {
      expect(await client.call('face/add', { lockId, featureData, name: 'Guest face', addType: 2 }), featureData).toMatchObject({ errcode: -3 });
    }
    const face = await client.call('face/add', { lockId, featureData: String(answer.featureData).toLowerCase(), name: 'Guest face', addType: 2 });
    expect(face).toHaveProperty('faceId');
    expect(await client.control('POST', `/locks/${lockId}/use`, { faceId: face.faceId })).toMatchObject({
      opened: true,
      record: { recordType: 67, success: 1, username: 'Guest face' },
    });

    // The photo: present, jpg / png / bmp, at most 2 MB (300 KB at least and "one clear face" are not checked).
    expect(await client.multipart('face/getFeatureDataByPhoto', { lockId })).toMatchObject({
      errcode: -3,
      errmsg: expect.stringContaining('image is required'),
    });
    expect(await client.multipart('face/getFeatureDataByPhoto', { lockId }, { field: 'photo', bytes: photo })).toMatchObject({ errcode: -3 });
    expect(await client.multipart('face/getFeatureDataByPhoto', { lockId }, { bytes: Buffer.from('GIF89a, not a photo TTLock takes') })).toMatchObject({
      errcode: -3,
      errmsg: expect.stringContaining('jpg, png or bmp'),
    });
    expect(await client.multipart('face/getFeatureDataByPhoto', { lockId }, { bytes: png(2 * 1024 * 1024) })).toHaveProperty('featureData');
    expect(await client.multipart('face/getFeatureDataByPhoto', { lockId }, { bytes: png(2 * 1024 * 1024 + 1) })).toMatchObject({
      errcode: -3,
      errmsg: expect.stringContaining('2 MB'),
    });
    const jpg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(512)]);
    expect(await client.multipart('face/getFeatureDataByPhoto', { lockId }, { bytes: jpg, type: 'image/jpeg', name: 'face.jpg' })).toEqual({
      featureData: simFaceFeatureData(lockId, jpg),
    });
    // A form-encoded call has no photo; other calls do not take multipart.
    expect(await client.call('face/getFeatureDataByPhoto', { lockId })).toMatchObject({ errcode: -3 });
    expect(await client.multipart('face/list', { lockId, pageNo: 1, pageSize: 20 }, { bytes: photo })).toMatchObject({ errcode: -3 });

    // The usual checks of a call: the token, the lock; a lock without a face module answers -4043 to every face call.
    expect(await client.multipart('face/getFeatureDataByPhoto', { lockId, accessToken: 'nope' }, { bytes: photo })).toMatchObject({ errcode: 10003 });
    expect(await client.multipart('face/getFeatureDataByPhoto', { lockId: 1 }, { bytes: photo })).toMatchObject({ errcode: -1003 });
    const { lockId: noFaces } = await client.lockWithGateway({ faceModule: false });
    expect(await client.multipart('face/getFeatureDataByPhoto', { lockId: noFaces }, { bytes: photo })).toMatchObject({ errcode: -4043 });
    expect(await client.call('face/add', { lockId: noFaces, featureData: simFaceFeatureData(noFaces, photo), name: 'x', addType: 2 })).toMatchObject({
      errcode: -4043,
    });
    expect(await client.call('face/list', { lockId: noFaces, pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({ errcode: -4043 });
    await client.control('PATCH', `/locks/${noFaces}`, { faceModule: true });
    expect(await client.featureData(noFaces, photo)).toBe(simFaceFeatureData(noFaces, photo));
  });

  it('plants drift on a lock behind the cloud and removes credentials silently', async () => {
    const { lockId } = await client.lockWithGateway();
    const planted = await client.control<{ planted: { keyboardPwdId: number } }>('POST', `/locks/${lockId}/drift`, {
      kind: 'passcode',
      code: '739148',
      name: 'Keypad code',
    });
    const hidden = await client.control('POST', `/locks/${lockId}/drift`, { kind: 'card', cardNumber: '998877', cloud: false });
    expect(hidden).toHaveProperty('planted');
    expect(await client.call('lock/listKeyboardPwd', { lockId, pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({
      list: [{ keyboardPwdId: planted.planted.keyboardPwdId, keyboardPwd: '739148', isCustom: 1 }],
    });
    // The card is on the lock but the cloud does not list it.
    expect(await client.call('identityCard/list', { lockId, pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({ total: 0 });
    expect(await client.control('POST', `/locks/${lockId}/use`, { cardNumber: '998877' })).toMatchObject({ opened: true });

    const added = await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 });
    // Removed at the lock, still listed by the cloud.
    await client.control('POST', `/locks/${lockId}/drift`, { action: 'remove', kind: 'passcode', id: added.keyboardPwdId, cloud: false });
    const list = await client.call('lock/listKeyboardPwd', { lockId, pageNo: 1, pageSize: 20 }, 'GET');
    expect((list.list as { keyboardPwdId: number }[]).map((p) => p.keyboardPwdId)).toContain(added.keyboardPwdId);
    expect(await client.control('POST', `/locks/${lockId}/use`, { passcode: '480613' })).toMatchObject({ opened: false, outcome: 'unknown' });
  });

  it('keeps records in the lock while its gateway is offline, and uploads them when it is back', async () => {
    const { lockId, gatewayId } = await client.lockWithGateway();
    await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2, keyboardPwdName: 'Guest' });
    await client.control('PATCH', `/gateways/${gatewayId}`, { online: false });
    await client.control('POST', `/locks/${lockId}/use`, { passcode: '480613' });
    expect(await client.call('lockRecord/list', { lockId, pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({ total: 0 });
    expect((await client.control<{ lock: { pendingRecords: unknown[] } }>('GET', `/locks/${lockId}`)).lock.pendingRecords).toHaveLength(1);
    await client.control('PATCH', `/gateways/${gatewayId}`, { online: true });
    expect(await client.call('lockRecord/list', { lockId, pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({
      total: 1,
      list: [{ success: 1, username: 'Guest', keyboardPwd: '480613' }],
    });
  });

  it('pages lists', async () => {
    const { lockId } = await client.lockWithGateway({ latencyMs: 0 });
    for (let i = 0; i < 5; i += 1) await client.call('keyboardPwd/get', { lockId, keyboardPwdType: 2, startDate: Date.now() });
    const first = await client.call('lock/listKeyboardPwd', { lockId, pageNo: 1, pageSize: 2 }, 'GET');
    const third = await client.call('lock/listKeyboardPwd', { lockId, pageNo: 3, pageSize: 2 }, 'GET');
    expect(first).toMatchObject({ pageNo: 1, pageSize: 2, pages: 3, total: 5 });
    expect(third.list).toHaveLength(1);
  });
});

describe('lock simulator: settings of the whole simulated cloud', () => {
  it('limits the call rate (30006)', async () => {
    await withSim({ rateLimitPerMinute: 3 }, async (client) => {
      for (let i = 0; i < 3; i += 1) expect(await client.call('lock/list', { pageNo: 1, pageSize: 20 }, 'GET')).toHaveProperty('list');
      expect(await client.call('lock/list', { pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({ errcode: 30006 });
    });
  });

  it('judges `date` by its own clock, which can be moved', async () => {
    await withSim({}, async (client) => {
      await client.control('PUT', '/clock', { offsetMs: 10 * 60_000 });
      expect(await client.call('lock/list', { pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({ errcode: 80000 });
      expect(await client.call('lock/list', { pageNo: 1, pageSize: 20, date: Date.now() + 10 * 60_000 }, 'GET')).toHaveProperty('list');
    });
  });

  it('posts records to the callback URL as TTLock does, and retries when the receiver fails', async () => {
    const receiver = await startReceiver([500]);
    try {
      await withSim({ callbackUrl: receiver.url, callbackRetryDelaysMs: [100, 200, 400] }, async (client) => {
        const { lockId } = await client.lockWithGateway({ battery: 77 });
        await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdName: 'Guest 7', keyboardPwdType: 2, addType: 2 });
        const used = await client.control<{ record: { recordId: number; lockDate: number } }>('POST', `/locks/${lockId}/use`, { passcode: '480613' });
        await receiver.waitFor(2);

        const { lock } = await client.control<{ lock: { lockMac: string } }>('GET', `/locks/${lockId}`);
        const [failed, delivered] = receiver.received;
        expect(failed!.fields).toEqual(delivered!.fields);
        expect(delivered!.contentType).toBe('application/x-www-form-urlencoded');
        expect(Object.keys(delivered!.fields).sort()).toEqual(['lockId', 'lockMac', 'notifyType', 'records']);
        expect(delivered!.fields).toMatchObject({ notifyType: '1', lockId: String(lockId), lockMac: lock.lockMac });
        const records = JSON.parse(delivered!.fields.records!) as Record<string, unknown>[];
        expect(records).toEqual([
          {
            recordType: 4,
            success: 1,
            username: 'Guest 7',
            keyboardPwd: '480613',
            lockDate: used.record.lockDate,
            electricQuantity: 77,
            serverDate: expect.any(Number),
          },
        ]);
        const { deliveries } = await client.control<{ deliveries: { status: string; attempts: number }[] }>('GET', '/callbacks');
        expect(deliveries).toMatchObject([{ status: 'delivered', attempts: 2 }]);
      });
    } finally {
      await receiver.close();
    }
  });

  it('keeps its state across a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-sim-'));
    const stateFile = path.join(dir, 'state.json');
    try {
      const first = await startLockSim({ stateFile });
      const client = new SimClient(first.url);
      await client.login();
      const { lockId } = await client.lockWithGateway({ name: 'Room 301' });
      const added = await client.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 });
      const firstUse = await client.control<{ record: { recordId: number } }>('POST', `/locks/${lockId}/use`, { passcode: '480613' });
      await first.close();
      expect(fs.readdirSync(dir)).toEqual(['state.json']);

      const second = await startLockSim({ stateFile });
      try {
        const again = new SimClient(second.url);
        again.token = client.token;
        expect(await again.call('lock/listKeyboardPwd', { lockId, pageNo: 1, pageSize: 20 }, 'GET')).toMatchObject({
          list: [{ keyboardPwdId: added.keyboardPwdId, keyboardPwd: '480613' }],
        });
        expect(await again.call('lock/detail', { lockId }, 'GET')).toMatchObject({ lockName: 'SIM Room 301' });
        const secondUse = await again.control<{ opened: boolean; record: { recordId: number } }>('POST', `/locks/${lockId}/use`, { passcode: '480613' });
        expect(secondUse.opened).toBe(true);
        expect(secondUse.record.recordId).toBeGreaterThan(firstUse.record.recordId);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
