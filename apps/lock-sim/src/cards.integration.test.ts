import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CardDump, type EncodeCardInput, encodeCard, generateHotelCardKeys, type HotelCardKeys } from '@console/card-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLockSim, type LockSim } from './server';
import { SimClient, startReceiver } from './test-client';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const HOTEL_A = 7001;
const HOTEL_B = 7002;

type CardSpec = Partial<Omit<EncodeCardInput, 'keys' | 'uid' | 'kind'>> & { kind?: EncodeCardInput['kind']; uid: string; keys: HotelCardKeys } & Record<
    string,
    unknown
  >;

/** A card as the desk writes it and a reader then reads it: UID, the sector's blocks, the trailer's key A. */
function card(spec: CardSpec): CardDump {
  const now = Date.now();
  const encoded = encodeCard({
    hotelTag: HOTEL_A,
    kind: 'guest',
    lockNumber: 101,
    generation: 1,
    validFrom: new Date(now - HOUR),
    validUntil: new Date(now + 2 * DAY),
    cardId: 1,
    ...spec,
  } as EncodeCardInput);
  return { uid: spec.uid, sector: encoded.sector, keyA: encoded.sectorKeyA, blocks: encoded.blocks };
}

describe('lock simulator: room cards at the door (docs/card-format.md)', () => {
  let sim: LockSim;
  let client: SimClient;
  const hotelA = generateHotelCardKeys();
  const hotelB = generateHotelCardKeys();

  beforeAll(async () => {
    sim = await startLockSim({ latencyMs: 5 });
    client = new SimClient(sim.url);
    await client.login();
  });
  afterAll(() => sim.close());

  /** A lock of a hotel, paired with a gateway, that has learnt the hotel's keys and its number. */
  async function cardLock(
    lockNumber: number,
    options: { hotelTag?: number; keys?: { keyId: string; validUntil?: number | null; keys: HotelCardKeys }[]; lock?: Record<string, unknown> } = {},
  ) {
    const { lockId, gatewayId } = await client.lockWithGateway(options.lock);
    const answer = await client.setHotelCardKeys(lockId, {
      hotelTag: options.hotelTag ?? HOTEL_A,
      lockNumber,
      keys: options.keys ?? [{ keyId: 'a-1', keys: hotelA }],
    });
    expect(answer).toMatchObject({ errcode: 0 });
    return { lockId, gatewayId };
  }

  const outcome = async (lockId: number, dump: CardDump) => (await client.presentCard(lockId, dump)).outcome;

  it('a guest card opens its room only, and the record is pushed like any other', async () => {
    const receiver = await startReceiver();
    try {
      await client.control('PUT', '/config', { callbackUrl: receiver.url });
      const room101 = await cardLock(101);
      const room102 = await cardLock(102);
      const guest = card({ keys: hotelA, uid: '04A1B2C3', lockNumber: 101, cardId: 3001 });

      const opened = await client.presentCard(room101.lockId, guest, '3661413478');
      expect(opened).toMatchObject({ simulated: true, opened: true, outcome: 'opened', by: 'data', card: { kind: 'guest', cardId: 3001, rooms: [101] } });
      expect(opened.record).toMatchObject({ recordType: 7, success: 1, username: '#C3001', keyboardPwd: '3661413478' });
      expect(opened.record).not.toHaveProperty('reason');
      const refused = await client.presentCard(room102.lockId, guest);
      expect(refused).toMatchObject({
        opened: false,
        outcome: 'wrong_room',
        record: { recordType: 7, success: 0, username: '#C3001', keyboardPwd: '04A1B2C3', reason: 'wrong_room' },
      });

      await receiver.waitFor(2);
      const pushed = receiver.received.map((r) => ({ lockId: Number(r.fields.lockId), records: JSON.parse(r.fields.records!) as Record<string, unknown>[] }));
      expect(pushed).toContainEqual({
        lockId: room101.lockId,
        records: [expect.objectContaining({ recordType: 7, success: 1, username: '#C3001', keyboardPwd: '3661413478' })],
      });
      expect(pushed).toContainEqual({
        lockId: room102.lockId,
        records: [expect.objectContaining({ recordType: 7, success: 0, reason: 'wrong_room', keyboardPwd: '04A1B2C3' })],
      });
      // lockRecord/list has them too.
      const listed = await client.call('lockRecord/list', { lockId: room102.lockId, pageNo: 1, pageSize: 20 }, 'GET');
      expect(listed.list).toEqual([expect.objectContaining({ recordType: 7, success: 0, reason: 'wrong_room' })]);
    } finally {
      await client.control('PUT', '/config', { callbackUrl: null });
      await receiver.close();
    }
  });

  it('a card of another hotel cannot be read, nor can a blank card; a lock without keys reads none', async () => {
    const { lockId } = await cardLock(101);
    expect(await outcome(lockId, card({ keys: hotelB, hotelTag: HOTEL_B, uid: '04A1B2C3' }))).toBe('unreadable');
    expect(
      await outcome(lockId, { uid: '04A1B2C3', sector: 1, keyA: 'FFFFFFFFFFFF', blocks: [4, 5, 6].map((block) => ({ block, data: '0'.repeat(32) })) }),
    ).toBe('unreadable');
    expect(await outcome(lockId, { ...card({ keys: hotelA, uid: '04A1B2C3' }), blocks: [4, 5, 6].map((block) => ({ block, data: '0'.repeat(32) })) })).toBe(
      'blank',
    );
    // A lock of hotel B refuses hotel A's card the same way.
    const other = await cardLock(101, { hotelTag: HOTEL_B, keys: [{ keyId: 'b-1', keys: hotelB }] });
    expect(await outcome(other.lockId, card({ keys: hotelA, uid: '04A1B2C3' }))).toBe('unreadable');
    expect(await outcome(other.lockId, card({ keys: hotelB, hotelTag: HOTEL_B, uid: '04A1B2C3' }))).toBe('opened');
    const { lockId: bare } = await client.lockWithGateway();
    expect(await client.presentCard(bare, card({ keys: hotelA, uid: '04A1B2C3' }))).toMatchObject({
      opened: false,
      outcome: 'unreadable',
      record: { recordTypeFromLock: 91 },
    });
  });

  it('refuses changed data and data copied to another card', async () => {
    const { lockId } = await cardLock(101);
    const dump = card({ keys: hotelA, uid: '04A1B2C3' });
    const changed = {
      ...dump,
      blocks: dump.blocks.map((b, i) => (i === 1 ? { ...b, data: `${b.data.slice(0, 10)}${b.data[10] === '0' ? '1' : '0'}${b.data.slice(11)}` } : b)),
    };
    expect(await outcome(lockId, changed)).toBe('tampered');
    expect(await outcome(lockId, { ...dump, uid: '04A1B2C4' })).toBe('uid_mismatch');
    expect(await outcome(lockId, dump)).toBe('opened');
  });

  it('a new card, once used, shuts out the older one; a duplicate works beside the original', async () => {
    const { lockId } = await cardLock(101);
    const first = card({ keys: hotelA, uid: '04000001', generation: 4, cardId: 11 });
    const copy = card({ keys: hotelA, uid: '04000002', generation: 4, duplicate: true, cardId: 12 });
    const next = card({ keys: hotelA, uid: '04000003', generation: 5, cardId: 13 });
    expect(await outcome(lockId, first)).toBe('opened');
    expect(await outcome(lockId, copy)).toBe('opened');
    expect(await outcome(lockId, first)).toBe('opened');
    expect(await outcome(lockId, next)).toBe('opened');
    expect(await outcome(lockId, first)).toBe('superseded');
    expect(await outcome(lockId, copy)).toBe('superseded');
    expect(await outcome(lockId, next)).toBe('opened');
    const settings = await client.call('lock/getHotelCardSettings', { lockId }, 'GET');
    expect(settings).toMatchObject({ hotelTag: HOTEL_A, lockNumber: 101, keys: [{ keyId: 'a-1', validUntil: 0, sector: 1 }], generations: { '101': 5 } });
    expect(JSON.stringify(settings)).not.toContain(hotelA.desKey);
  });

  it('refuses a card outside its validity by the lock clock', async () => {
    const { lockId } = await cardLock(101);
    const now = Date.now();
    const expired = card({ keys: hotelA, uid: '04000001', validFrom: new Date(now - 2 * DAY), validUntil: new Date(now - HOUR) });
    const later = card({ keys: hotelA, uid: '04000002', validFrom: new Date(now + DAY), validUntil: new Date(now + 2 * DAY) });
    const current = card({ keys: hotelA, uid: '04000003', validFrom: new Date(now - HOUR), validUntil: new Date(now + 2 * HOUR) });
    expect(await outcome(lockId, expired)).toBe('expired');
    expect(await outcome(lockId, later)).toBe('not_yet_valid');
    expect(await outcome(lockId, current)).toBe('opened');
    // Three hours later on the lock's own clock the current card has expired too.
    await client.control('PATCH', `/locks/${lockId}`, { clockOffsetMs: 3 * HOUR });
    expect(await outcome(lockId, current)).toBe('expired');
  });

  it('denylists a card by UID or card id through the gateway, and takes it off again', async () => {
    const { lockId } = await cardLock(101);
    const lost = card({ keys: hotelA, uid: '04AABBCC', cardId: 77 });
    expect(await outcome(lockId, lost)).toBe('opened');
    expect(await client.call('lock/addHotelCardDenylist', { lockId, cardUid: '04aabbcc' })).toMatchObject({ errcode: 0 });
    expect(await client.presentCard(lockId, lost)).toMatchObject({ opened: false, outcome: 'denylisted', record: { reason: 'denylisted', success: 0 } });
    // Adding it again changes nothing; removing it lets the card in again; removing twice: -1021.
    expect(await client.call('lock/addHotelCardDenylist', { lockId, cardUid: '04AABBCC' })).toMatchObject({ errcode: 0 });
    expect(await client.call('lock/deleteHotelCardDenylist', { lockId, cardUid: '04AABBCC' })).toMatchObject({ errcode: 0 });
    expect(await outcome(lockId, lost)).toBe('opened');
    expect(await client.call('lock/deleteHotelCardDenylist', { lockId, cardUid: '04AABBCC' })).toMatchObject({ errcode: -1021 });
    expect(await client.call('lock/addHotelCardDenylist', { lockId, cardId: 77 })).toMatchObject({ errcode: 0 });
    expect(await outcome(lockId, lost)).toBe('denylisted');
    expect(await client.call('lock/getHotelCardSettings', { lockId }, 'GET')).toMatchObject({ denylist: { cardUids: [], cardIds: [77] } });
    expect(await client.call('lock/addHotelCardDenylist', { lockId })).toMatchObject({ errcode: -3 });
    expect(await client.call('lock/addHotelCardDenylist', { lockId, cardUid: '04AABB' })).toMatchObject({ errcode: -3 });
  });

  it('a cancel card presented at the door denylists the lost card there', async () => {
    const { lockId } = await cardLock(101);
    const lost = card({ keys: hotelA, uid: '04AABBCD', cardId: 78 });
    const cancel = card({ keys: hotelA, uid: '04CC0001', kind: 'cancel', rooms: [101], cancelsCardId: 78, cardId: 79 });
    expect(await outcome(lockId, lost)).toBe('opened');
    expect(await client.presentCard(lockId, cancel)).toMatchObject({
      opened: false,
      outcome: 'cancel_applied',
      record: { success: 0, reason: 'cancel_applied', username: '#C79' },
    });
    expect(await outcome(lockId, lost)).toBe('denylisted');
  });

  it('a master card opens exactly its rooms', async () => {
    const locks = new Map<number, number>();
    for (const n of [101, 102, 103, 201]) locks.set(n, (await cardLock(n)).lockId);
    const master = card({ keys: hotelA, uid: '04DD0001', kind: 'master', rooms: [101, 103, 201], cardId: 90 });
    const results = Object.fromEntries(await Promise.all([...locks].map(async ([n, lockId]) => [n, await outcome(lockId, master)] as const)));
    expect(results).toEqual({ 101: 'opened', 102: 'wrong_room', 103: 'opened', 201: 'opened' });
    // A master card does not move the guest-card generation of a room.
    expect(await client.call('lock/getHotelCardSettings', { lockId: locks.get(101)! }, 'GET')).toMatchObject({ generations: {} });
  });

  it('key rotation: cards under the earlier key set open while the lock keeps that set', async () => {
    const next = generateHotelCardKeys();
    const { lockId } = await cardLock(101, { keys: [{ keyId: 'a-1', keys: hotelA }] });
    const oldCard = card({ keys: hotelA, uid: '04000001' });
    const newCard = card({ keys: next, uid: '04000002' });
    expect(await outcome(lockId, newCard)).toBe('unreadable');
    // The lock learns the new set and keeps the earlier one until its cards have expired.
    expect(
      await client.setHotelCardKeys(lockId, {
        hotelTag: HOTEL_A,
        lockNumber: 101,
        keys: [
          { keyId: 'a-2', keys: next },
          { keyId: 'a-1', validUntil: Date.now() + 2 * DAY, keys: hotelA },
        ],
      }),
    ).toMatchObject({ errcode: 0 });
    expect(await client.presentCard(lockId, oldCard)).toMatchObject({ outcome: 'opened', card: { keyId: 'a-1' } });
    expect(await client.presentCard(lockId, newCard)).toMatchObject({ outcome: 'opened', card: { keyId: 'a-2' } });
    // Past the earlier set's end (by the lock's clock) its cards can no longer be read.
    await client.control('PATCH', `/locks/${lockId}`, { clockOffsetMs: 2 * DAY + HOUR });
    expect(await outcome(lockId, oldCard)).toBe('unreadable');
    await client.control('PATCH', `/locks/${lockId}`, { clockOffsetMs: 0 });
    // Once the earlier set is gone from the list, its cards cannot be read at all.
    expect(await client.setHotelCardKeys(lockId, { hotelTag: HOTEL_A, lockNumber: 101, keys: [{ keyId: 'a-2', keys: next }] })).toMatchObject({ errcode: 0 });
    expect(await outcome(lockId, oldCard)).toBe('unreadable');
    expect(await outcome(lockId, newCard)).toBe('opened');
  });

  it('a new hotel tag (the lock moved to another hotel) clears the generations and the denylist', async () => {
    const { lockId } = await cardLock(101);
    expect(await outcome(lockId, card({ keys: hotelA, uid: '04000001', generation: 9 }))).toBe('opened');
    await client.call('lock/addHotelCardDenylist', { lockId, cardUid: '04000002' });
    expect(await client.setHotelCardKeys(lockId, { hotelTag: HOTEL_A, lockNumber: 101, keys: [{ keyId: 'a-1', keys: hotelA }] })).toMatchObject({ errcode: 0 });
    expect(await client.call('lock/getHotelCardSettings', { lockId }, 'GET')).toMatchObject({
      generations: { '101': 9 },
      denylist: { cardUids: ['04000002'] },
    });
    expect(await client.setHotelCardKeys(lockId, { hotelTag: HOTEL_B, lockNumber: 5, keys: [{ keyId: 'b-1', keys: hotelB }] })).toMatchObject({ errcode: 0 });
    expect(await client.call('lock/getHotelCardSettings', { lockId }, 'GET')).toMatchObject({
      hotelTag: HOTEL_B,
      lockNumber: 5,
      generations: {},
      denylist: { cardUids: [], cardIds: [] },
    });
  });

  it('a card the lock holds by number opens by number, as before', async () => {
    const { lockId } = await cardLock(101);
    expect(await client.call('identityCard/add', { lockId, cardNumber: '3661413478', cardName: 'Guest #P1', addType: 2 })).toHaveProperty('cardId');
    const otherRoom = card({ keys: hotelA, uid: '04000001', lockNumber: 102 });
    expect(await client.presentCard(lockId, otherRoom, '3661413478')).toMatchObject({
      opened: true,
      by: 'number',
      record: { username: 'Guest #P1', keyboardPwd: '3661413478' },
    });
    expect(await client.presentCard(lockId, otherRoom, '1111111111')).toMatchObject({ opened: false, by: 'data', outcome: 'wrong_room' });
    expect(await client.control('POST', `/locks/${lockId}/use`, { cardNumber: '3661413478' })).toMatchObject({ opened: true });
  });

  it('the card calls go through the gateway like every write: offline, busy, no gateway, frozen, injected failures', async () => {
    const { lockId, gatewayId } = await cardLock(101);
    const set = () => client.setHotelCardKeys(lockId, { hotelTag: HOTEL_A, lockNumber: 101, keys: [{ keyId: 'a-1', keys: hotelA }] });
    const deny = () => client.call('lock/addHotelCardDenylist', { lockId, cardUid: '04000009' });
    await client.control('PATCH', `/locks/${lockId}`, { online: false });
    expect(await set()).toMatchObject({ errcode: -3036 });
    expect(await deny()).toMatchObject({ errcode: -3036 });
    await client.control('PATCH', `/locks/${lockId}`, { online: true });
    await client.control('PATCH', `/gateways/${gatewayId}`, { online: false });
    expect(await set()).toMatchObject({ errcode: -3002 });
    await client.control('PATCH', `/gateways/${gatewayId}`, { online: true, busy: true });
    expect(await deny()).toMatchObject({ errcode: -3003 });
    await client.control('PATCH', `/gateways/${gatewayId}`, { busy: false });
    await client.control('PATCH', `/locks/${lockId}`, { frozen: true });
    expect(await set()).toMatchObject({ errcode: -2025 });
    await client.control('PATCH', `/locks/${lockId}`, { frozen: false });
    await client.control('POST', `/locks/${lockId}/failures`, { code: -3037, ops: ['lock/setHotelCardKeys'] });
    expect(await set()).toMatchObject({ errcode: -3037 });
    expect(await deny()).toMatchObject({ errcode: 0 });
    await client.control('DELETE', `/locks/${lockId}/failures`);
    await client.control('POST', '/failures/next', { code: -3036, op: 'lock/deleteHotelCardDenylist', lockId });
    expect(await client.call('lock/deleteHotelCardDenylist', { lockId, cardUid: '04000009' })).toMatchObject({ errcode: -3036 });
    expect(await client.call('lock/deleteHotelCardDenylist', { lockId, cardUid: '04000009' })).toMatchObject({ errcode: 0 });
    expect(await set()).toMatchObject({ errcode: 0 });

    const { lock } = await client.control<{ lock: { lockId: number } }>('POST', '/locks', {});
    expect(await client.setHotelCardKeys(lock.lockId, { hotelTag: HOTEL_A, lockNumber: 101, keys: [{ keyId: 'a-1', keys: hotelA }] })).toMatchObject({
      errcode: -2012,
    });
    expect(await client.call('lock/getHotelCardSettings', { lockId: 1 }, 'GET')).toMatchObject({ errcode: -1003 });
  });

  it('refuses key lists that are not safe or not well formed (-3), before the gateway', async () => {
    const { lockId } = await client.lockWithGateway();
    const send = (cardKeys: unknown, extra: Record<string, unknown> = {}) =>
      client.call('lock/setHotelCardKeys', { lockId, hotelTag: HOTEL_A, lockNumber: 101, cardKeys: JSON.stringify(cardKeys), ...extra });
    const good = { keyId: 'a-1', ...hotelA };
    expect(await send([{ ...good, sectorKeyA: 'FFFFFFFFFFFF' }])).toMatchObject({ errcode: -3, errmsg: expect.stringContaining('sectorKeyA') });
    expect(await send([])).toMatchObject({ errcode: -3 });
    expect(await send([good, good])).toMatchObject({ errcode: -3, errmsg: expect.stringContaining('keyId') });
    expect(await send(Array.from({ length: 9 }, (_, i) => ({ ...good, keyId: `k${i}` })))).toMatchObject({ errcode: -3 });
    expect(await send([{ ...good, keyId: '' }])).toMatchObject({ errcode: -3 });
    expect(await send([good], { lockNumber: 0 })).toMatchObject({ errcode: -3 });
    expect(await send([good], { hotelTag: 0 })).toMatchObject({ errcode: -3 });
    expect(await client.call('lock/setHotelCardKeys', { lockId, hotelTag: HOTEL_A, lockNumber: 101, cardKeys: 'not json' })).toMatchObject({ errcode: -3 });
    expect(await send([good])).toMatchObject({ errcode: 0 });
  });

  it('a shared door (keys set with a door number) opens for guest cards naming it, in their validity, off its denylist; refuses other cards', async () => {
    const { lockId } = await client.lockWithGateway();
    const set = (extra: Record<string, unknown>) =>
      client.call('lock/setHotelCardKeys', { lockId, hotelTag: HOTEL_A, cardKeys: JSON.stringify([{ keyId: 'a-1', ...hotelA }]), ...extra });
    // Exactly one of a lock number and a door number, each 1 to 65535.
    for (const bad of [{}, { lockNumber: 101, doorNumber: 3 }, { doorNumber: 0 }, { doorNumber: 65536 }, { doorNumber: 'x' }])
      expect(await set(bad)).toMatchObject({ errcode: -3 });
    expect(await set({ doorNumber: 3 })).toMatchObject({ errcode: 0 });
    expect(await client.call('lock/getHotelCardSettings', { lockId })).toMatchObject({ lockNumber: 0, doorNumber: 3 });

    const named = card({ keys: hotelA, uid: '0A0B0C01', doors: [3, 9], cardId: 71 });
    const opened = await client.presentCard(lockId, named);
    expect(opened).toMatchObject({ opened: true, outcome: 'opened', record: { success: 1, username: '#C71' } });
    // Room 3's card is no card of door 3; a card naming other doors, or none (version 1), is refused.
    expect(await outcome(lockId, card({ keys: hotelA, uid: '0A0B0C02', lockNumber: 3 }))).toBe('wrong_room');
    expect(await outcome(lockId, card({ keys: hotelA, uid: '0A0B0C03', doors: [9] }))).toBe('wrong_room');
    expect(
      await outcome(
        lockId,
        card({ keys: hotelA, uid: '0A0B0C04', doors: [3], validUntil: new Date(Date.now() - HOUR), validFrom: new Date(Date.now() - DAY) }),
      ),
    ).toBe('expired');
    expect(await outcome(lockId, card({ keys: hotelB, uid: '0A0B0C05', doors: [3] }))).toBe('unreadable');
    expect(await client.call('lock/addHotelCardDenylist', { lockId, cardId: 71 })).toMatchObject({ errcode: 0 });
    expect(await client.presentCard(lockId, named)).toMatchObject({ opened: false, outcome: 'denylisted', record: { reason: 'denylisted', username: '#C71' } });
  });

  it('refuses a card dump that is not one with HTTP 400', async () => {
    const { lockId } = await cardLock(101);
    const dump = card({ keys: hotelA, uid: '04A1B2C3' });
    const post = (c: unknown) =>
      fetch(`${sim.url}/sim/locks/${lockId}/use`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ card: c }) });
    expect((await post({ ...dump, uid: '123' })).status).toBe(400);
    expect((await post({ ...dump, keyA: undefined })).status).toBe(400);
    expect((await post({ ...dump, blocks: dump.blocks.slice(1) })).status).toBe(400);
    // Blocks as three strings and the trailer in place of key A are read too.
    const encodedTrailer = `${dump.keyA}FF078069${hotelA.sectorKeyB}`;
    const answer = await post({ uid: dump.uid.toLowerCase(), sector: 1, trailer: encodedTrailer, blocks: dump.blocks.map((b) => b.data.toLowerCase()) });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ opened: true });
  });
});

describe('lock simulator: room-card state across a restart', () => {
  it('keeps the keys, the lock number, the newest generation and the denylist', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-sim-cards-'));
    const stateFile = path.join(dir, 'state.json');
    const keys = generateHotelCardKeys({ sector: 6 });
    const old = card({ keys, uid: '04000001', generation: 1 });
    const next = card({ keys, uid: '04000002', generation: 2 });
    const lost = card({ keys, uid: '04000003', generation: 2, duplicate: true });
    let lockId: number;
    const first = await startLockSim({ stateFile, latencyMs: 5 });
    try {
      const client = new SimClient(first.url);
      await client.login();
      ({ lockId } = await client.lockWithGateway());
      expect(await client.setHotelCardKeys(lockId, { hotelTag: HOTEL_A, lockNumber: 101, keys: [{ keyId: 'k-6', keys }] })).toMatchObject({ errcode: 0 });
      expect((await client.presentCard(lockId, next)).outcome).toBe('opened');
      expect(await client.call('lock/addHotelCardDenylist', { lockId, cardUid: '04000003' })).toMatchObject({ errcode: 0 });
    } finally {
      await first.close();
    }
    const second = await startLockSim({ stateFile, latencyMs: 5 });
    try {
      const client = new SimClient(second.url);
      await client.login();
      expect((await client.presentCard(lockId, old)).outcome).toBe('superseded');
      expect((await client.presentCard(lockId, next)).outcome).toBe('opened');
      expect((await client.presentCard(lockId, lost)).outcome).toBe('denylisted');
    } finally {
      await second.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
