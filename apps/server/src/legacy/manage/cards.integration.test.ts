import { randomBytes, randomUUID } from 'node:crypto';
import { startLockSim, SimClient, type LockSim } from '@console/lock-sim';
import { addDays, cardNumberOfUid, localDate } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../jobs/workers';
import { createTestContext, testLockIdBase, type TestContext } from '../../test/harness';
import { pairSimLock } from '../../test/lock-factories';
import { TEST_PASSWORD, createAccount, createHotel, createRooms, uniqueMobile } from '../../test/factories';
import { legacyClient } from '../../test/legacy-client';

/**
 * The legacy room-card actions driven as an old client does (crypto-js envelope): writing a card
 * at the desk in two steps (`room/cardAdd`, `room/addCardStepTwoNew`), over-the-air cards
 * (`room/sendCard`, `room/sendCardEncryption`), the hotel's card encryption (`room/cardEncryption`,
 * `cardEncryptionList`, `deleteCardEncryption`, `sendCardEncryptionSyntony`), a lock's cards
 * (`lock/noteCardList`), a card read at the desk (`passenger/getRoomInfo`) and taken back
 * (`passenger/deleteCardByCardId`). Real services, the delivery engine with its workers, the TTLock
 * adapter and the lock simulator: a card "written" is the answer's blocks and the trailer's key A
 * on a card with that UID, held to the simulated lock, which reads it as an offline hotel lock does.
 */
let sim: LockSim;
let sc: SimClient;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let ipCounter = 0;
const client = (language = 'en') => legacyClient(ctx.app, ctx.config, { language, ip: `10.86.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

beforeAll(async () => {
  sim = await startLockSim({ latencyMs: [2, 10], lockIdBase: testLockIdBase() });
  sc = new SimClient(sim.url);
  ctx = await createTestContext({ sim, env: { LOCK_DELIVERY_ATTEMPTS: '2', LOCK_DELIVERY_BACKOFF_MS: '100' } });
  workers = startWorkers(ctx.deps, { sweep: false });
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await sim?.close();
});

const tz = 'Asia/Shanghai';
/** `YYYY-MM-DD HH:mm:ss` in the hotel's zone, `days` from today. */
const at = (days: number, time: string) => `${addDays(localDate(new Date(), tz), days)} ${time}`;
const newUid = () => randomBytes(4).toString('hex').toUpperCase();
const newCardNumber = () => String(3_000_000_000 + randomBytes(3).readUIntBE(0, 3));

async function waitFor<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A hotel whose rooms each have a simulated lock behind a gateway; its owner and a staff member signed in over the legacy protocol. */
async function legacyHotel(count = 2) {
  const hotel = await createHotel(ctx.deps);
  const owner = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'owner' });
  const staff = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'staff' });
  const names = Array.from({ length: count }, (_, i) => `K${randomUUID().slice(0, 5)}-${i}`);
  const { rooms } = await createRooms(ctx.deps, hotel.id, names);
  const lockIds: string[] = [];
  for (const room of rooms) {
    const { lockId } = await sc.lockWithGateway();
    await pairSimLock(ctx.deps, hotel.id, room.id, lockId);
    lockIds.push(String(lockId));
  }
  const login = async (mobile: string) => {
    const res = await client().call<{ token: string }>('login', { mobile, password: TEST_PASSWORD });
    expect(res.errno).toBe(0);
    return res.data.token;
  };
  return { hotel, rooms, lockIds, token: await login(owner.mobile!), staffToken: await login(staff.mobile!) };
}
type Hotel = Awaited<ReturnType<typeof legacyHotel>>;

interface LegacyStay {
  id: number;
  room_id: number;
  check_out_time: string;
  guests: { manage_id: number; name: string }[];
}

async function checkIn(h: Hotel, roomIndex: number, name: string, remark = '') {
  const res = await client().call<LegacyStay>(
    'room/tenant/update/checkIn',
    {
      room_id: h.rooms[roomIndex]!.id,
      check_in_time: at(-1, '15:00:00'),
      check_out_time: at(2, '12:00:00'),
      guests: [{ name, mobile: uniqueMobile() }],
      other_information: remark,
      request_id: `cards-${randomUUID()}`,
    },
    { token: h.token },
  );
  expect(res.errno, JSON.stringify(res)).toBe(0);
  return res.data;
}

interface LegacyLockState {
  room_id: number;
  room_name: string;
  state: string;
  state_text: string | null;
  error: string | null;
  error_text: string | null;
  revoke_reason: string | null;
}
interface LegacyCard {
  id: number;
  card_num: string;
  uid: string;
  kind: string;
  medium: string;
  state: string;
  state_text: string | null;
  tenant_id: number | null;
  room_id: number | null;
  room_name: string | null;
  all_rooms: number;
  duplicate: number;
  generation: number | null;
  name: string;
  note: string;
  cardNote: string;
  start_time: string;
  end_time: string | null;
  permanent: number;
  end_reason: string | null;
  end_reason_text: string | null;
  issue_time: string | null;
  ended_time: string | null;
  locks: LegacyLockState[];
}
interface LegacyWrite extends LegacyCard {
  sector: number;
  blocks: { block: number; data: string }[];
  trailer: { block: number; data: string };
  open_keys: string[];
}
interface LegacyKeySync {
  room_id: number;
  lock_id: string;
  state: string;
  state_text: string | null;
  error: string | null;
  delivered_time: string | null;
}
interface LegacyKeySet {
  id: number;
  name: string;
  sector: number;
  fingerprint: string;
  is_active: number;
  retired_time: string | null;
  keep_until: string | null;
  issued_cards: number;
}
interface LegacyPage<T> {
  room_id: number;
  room_name: string;
  lock_id: string | null;
  list: T[];
  total: number;
  page: number;
  limit: number;
}

/** What a desk reader leaves on the card: the blocks written, and the key A its trailer set. */
const dumpOf = (write: LegacyWrite) => ({ uid: write.uid, sector: write.sector, keyA: write.trailer.data.slice(0, 12), blocks: write.blocks });
const present = (lockId: string, write: LegacyWrite) => sc.presentCard(Number(lockId), dumpOf(write));
const useNumber = (lockId: string, cardNumber: string) => sc.control<{ opened: boolean; outcome: string }>('POST', `/locks/${lockId}/use`, { cardNumber });

/** Step one and step two over the legacy protocol, the reader reading back exactly what it wrote. */
async function writeCard(h: Hotel, payload: Record<string, unknown>, token = h.token) {
  const c = client();
  const reserved = await c.call<LegacyWrite>('room/cardAdd', payload, { token });
  expect(reserved.errno, JSON.stringify(reserved)).toBe(0);
  const confirmed = await c.call<LegacyCard>(
    'room/addCardStepTwoNew',
    { card_id: reserved.data.id, uid: reserved.data.uid, blocks: reserved.data.blocks },
    { token },
  );
  expect(confirmed.errno, JSON.stringify(confirmed)).toBe(0);
  return { write: reserved.data, card: confirmed.data };
}

/** The hotel's card keys are on all its locks (legacy `cardEncryptionList`, polled). */
async function keysOnLocks(h: Hotel) {
  return waitFor(
    'card keys on the locks',
    async () => (await client().call<{ locks: LegacyKeySync[] }>('room/cardEncryptionList', {}, { token: h.token })).data.locks,
    (locks) => locks.length === h.rooms.length && locks.every((l) => l.state === 'on_lock'),
  );
}

/** A card's locks as `lock/noteCardList` shows them, until none is on its way. */
async function settledCard(h: Hotel, roomIndex: number, id: number) {
  const card = await waitFor(
    `card ${id} settled`,
    async () =>
      (
        await client().call<LegacyPage<LegacyCard>>('lock/noteCardList', { room_id: h.rooms[roomIndex]!.id, scope: 'all', limit: 100 }, { token: h.token })
      ).data.list.find((c) => c.id === id),
    (c) => c !== undefined && c.locks.every((l) => !['pending', 'removing'].includes(l.state)),
  );
  return card!;
}

describe('writing a guest card at the desk over the legacy protocol', () => {
  it('reserves the data for the card on the reader, issues it on a faithful read-back; it opens its room, the desk finds its guest, and withdrawal takes it back', async () => {
    const h = await legacyHotel(2);
    const stay = await checkIn(h, 0, 'Ada Brandt', 'Late arrival, quiet room');
    const c = client();
    const uid = newUid();

    const reserved = await c.call<LegacyWrite>('room/cardAdd', { uid: uid.toLowerCase(), tenant_id: stay.id, note: 'Desk 1' }, { token: h.token });
    expect(reserved).toMatchObject({
      errno: 0,
      data: {
        card_num: cardNumberOfUid(uid),
        uid,
        kind: 'room',
        medium: 'data',
        state: 'reserved',
        state_text: 'Being written',
        tenant_id: stay.id,
        room_id: h.rooms[0]!.id,
        duplicate: 0,
        generation: 1,
        name: 'Ada Brandt',
        note: 'Desk 1',
        cardNote: 'Desk 1',
        end_time: stay.check_out_time,
        sector: 1,
        locks: [],
      },
    });
    const write = reserved.data;
    expect(write.blocks.map((b) => b.block)).toEqual([4, 5, 6]);
    for (const b of write.blocks) expect(b.data).toMatch(/^[0-9A-F]{32}$/);
    expect(write.trailer).toMatchObject({ block: 7, data: expect.stringMatching(/^[0-9A-F]{12}FF078069[0-9A-F]{12}$/) });
    // A blank card opens with the factory key, a card written before with the hotel's key A.
    expect(write.open_keys.at(-1)).toBe('FFFFFFFFFFFF');
    expect(write.open_keys).toContain(write.trailer.data.slice(0, 12));

    const confirmed = await c.call<LegacyCard>(
      'room/addCardStepTwoNew',
      { card_id: write.id, uid, blocks: write.blocks },
      { token: h.token, language: 'zh-CN' },
    );
    expect(confirmed).toMatchObject({
      errno: 0,
      data: {
        id: write.id,
        state: 'issued',
        state_text: '已发卡',
        issue_time: expect.any(String),
        locks: [{ room_id: h.rooms[0]!.id, state: 'on_lock', state_text: '已下发到门锁' }],
      },
    });
    // The audit log says these came through the legacy protocol.
    const audited = await ctx.deps.prisma.auditLog.findMany({
      where: { entityType: 'CardIssue', entityId: String(write.id) },
      orderBy: { id: 'asc' },
      select: { action: true, channel: true },
    });
    expect(audited).toEqual([
      { action: 'card.reserve', channel: 'legacy' },
      { action: 'card.issue', channel: 'legacy' },
    ]);
    await keysOnLocks(h);
    expect(await present(h.lockIds[0]!, write)).toMatchObject({ opened: true, outcome: 'opened' });
    expect(await present(h.lockIds[1]!, write)).toMatchObject({ opened: false, outcome: 'wrong_room' });

    // Read at the desk: a list whose first item has the guest (manage_id) and the stay's remark (other_information).
    const found = await c.call<Record<string, unknown>[]>('passenger/getRoomInfo', { card_num: write.card_num }, { token: h.token });
    expect(found).toMatchObject({
      errno: 0,
      data: [
        {
          manage_id: stay.guests[0]!.manage_id,
          name: 'Ada Brandt',
          other_information: 'Late arrival, quiet room',
          stay_id: stay.id,
          room_id: h.rooms[0]!.id,
          state: 'in_house',
          check_out_time: stay.check_out_time,
          card_num: write.card_num,
          card: { id: write.id, state: 'issued' },
          stay: { id: stay.id },
        },
      ],
    });
    expect(found.data).toHaveLength(1);

    // The lock's cards with their notes, by room or by the lock cloud's id.
    const byRoom = await c.call<LegacyPage<LegacyCard>>('lock/noteCardList', { room_id: h.rooms[0]!.id }, { token: h.token });
    expect(byRoom.data).toMatchObject({
      room_id: h.rooms[0]!.id,
      lock_id: h.lockIds[0],
      total: 1,
      page: 1,
      limit: 20,
      list: [{ id: write.id, card_num: write.card_num, note: 'Desk 1', cardNote: 'Desk 1', state: 'issued' }],
    });
    expect((await c.call<LegacyPage<LegacyCard>>('lock/noteCardList', { lock_id: h.lockIds[0] }, { token: h.token })).data.list.map((x) => x.id)).toEqual([
      write.id,
    ]);
    expect((await c.call<LegacyPage<LegacyCard>>('lock/noteCardList', { room_id: h.rooms[1]!.id }, { token: h.token })).data).toMatchObject({
      total: 0,
      list: [],
    });

    // Withdrawal: returned, the blocks to clear, refused at the lock once it has been told.
    const back = await c.call<LegacyCard & { sector: number; clear: { block: number; data: string }[]; open_keys: string[] }>(
      'passenger/deleteCardByCardId',
      { card_num: write.card_num },
      { token: h.token },
    );
    expect(back).toMatchObject({ errno: 0, data: { id: write.id, state: 'returned', end_reason: 'returned', end_reason_text: 'Card returned', sector: 1 } });
    expect(back.data.clear).toEqual([4, 5, 6].map((block) => ({ block, data: '0'.repeat(32) })));
    // The keys to open its sector before clearing it: the hotel's key A it was written with comes before the factory key.
    expect(back.data.open_keys).toEqual(write.open_keys);
    expect((await settledCard(h, 0, write.id)).locks).toMatchObject([{ state: 'removed', revoke_reason: 'returned' }]);
    expect(await present(h.lockIds[0]!, write)).toMatchObject({ opened: false, outcome: 'denylisted' });
    expect(await c.call('passenger/getRoomInfo', { card_num: write.card_num }, { token: h.token })).toMatchObject({ errno: 0, data: [] });
    expect(
      (await c.call<LegacyPage<LegacyCard>>('lock/noteCardList', { room_id: h.rooms[0]!.id, scope: 'history' }, { token: h.token })).data.list.map((x) => [
        x.id,
        x.state,
      ]),
    ).toEqual([[write.id, 'returned']]);
    // Taken back by its id as well; once back, it is not issued.
    expect(await c.call('passenger/deleteCardByCardId', { card_id: write.id }, { token: h.token })).toMatchObject({
      errno: 100005,
      errmsg: 'This card is not issued at the moment',
    });

    // The same card serves the next guest (staff may write room cards).
    const again = await writeCard(h, { uid, tenant_id: stay.id, mode: 'duplicate' }, h.staffToken);
    expect(again.card).toMatchObject({ state: 'issued', duplicate: 1, card_num: write.card_num });
    const byId = await c.call<LegacyCard>('passenger/deleteCardByCardId', { card_id: again.card.id, card_num: write.card_num }, { token: h.staffToken });
    expect(byId).toMatchObject({ errno: 0, data: { id: again.card.id, state: 'returned' } });
  });

  it('duplicates open beside the first card, a new card voids them once used, a card in use is not written over, a bad read-back or a cancel issues nothing', async () => {
    const h = await legacyHotel(1);
    const lockId = h.lockIds[0]!;
    const stay = await checkIn(h, 0, 'Lin Wei');
    const c = client();
    const first = await writeCard(h, { uid: newUid(), tenant_id: stay.id, kind: 'room', mode: 'new' });
    const copy = await writeCard(h, { uid: newUid(), tenant_id: stay.id, mode: 'duplicate' });
    expect(copy.card).toMatchObject({ duplicate: 1, generation: first.card.generation });
    await keysOnLocks(h);
    expect(await present(lockId, first.write)).toMatchObject({ opened: true });
    expect(await present(lockId, copy.write)).toMatchObject({ opened: true });

    // Still issued: take it back first.
    expect(await c.call('room/cardAdd', { uid: first.write.uid, tenant_id: stay.id }, { token: h.token })).toMatchObject({
      errno: 100006,
      errmsg: expect.stringContaining('This card is in use'),
    });

    // The reader read back something else: voided, nothing issued.
    const bad = (await c.call<LegacyWrite>('room/cardAdd', { uid: newUid(), tenant_id: stay.id, mode: 'duplicate' }, { token: h.token })).data;
    const corrupted = bad.blocks.map((b, i) =>
      i === 2 ? { block: b.block, data: b.data.startsWith('00') ? `11${b.data.slice(2)}` : `00${b.data.slice(2)}` } : b,
    );
    expect(await c.call('room/addCardStepTwoNew', { card_id: bad.id, uid: bad.uid, blocks: corrupted }, { token: h.token })).toMatchObject({
      errno: 100001,
      errmsg: 'The card did not read back what was written: no card was issued. Write it again',
    });
    // Abandoned by the desk (the write failed in the reader): `cancel`.
    const abandoned = (await c.call<LegacyWrite>('room/cardAdd', { uid: newUid(), tenant_id: stay.id, mode: 'duplicate' }, { token: h.token })).data;
    expect(await c.call('room/addCardStepTwoNew', { card_id: abandoned.id, cancel: 1 }, { token: h.token })).toMatchObject({
      errno: 0,
      data: { id: abandoned.id, state: 'voided', end_reason: 'write_failed', end_reason_text: 'The card was not written' },
    });
    expect(await c.call('room/addCardStepTwoNew', { card_id: abandoned.id, uid: abandoned.uid, blocks: abandoned.blocks }, { token: h.token })).toMatchObject({
      errno: 100006,
      errmsg: 'Writing this card has already ended: read the card again',
    });
    const history = await c.call<LegacyPage<LegacyCard>>(
      'lock/noteCardList',
      { room_id: h.rooms[0]!.id, scope: 'history' },
      { token: h.token, language: 'de' },
    );
    expect(history.data.list.map((x) => [x.id, x.state, x.state_text, x.end_reason]).sort()).toEqual(
      [
        [bad.id, 'voided', 'Nicht ausgegeben (Schreiben abgebrochen oder fehlgeschlagen)', 'write_failed'],
        [abandoned.id, 'voided', 'Nicht ausgegeben (Schreiben abgebrochen oder fehlgeschlagen)', 'write_failed'],
      ].sort(),
    );

    // A new card: the earlier ones end (replaced), and the lock refuses them.
    const fresh = await writeCard(h, { uid: newUid(), tenant_id: stay.id, mode: 'new' });
    expect(fresh.card.generation).toBe(2);
    const active = await c.call<LegacyPage<LegacyCard>>('lock/noteCardList', { room_id: h.rooms[0]!.id, tenant_id: stay.id }, { token: h.token });
    expect(active.data.list.map((x) => x.id)).toEqual([fresh.card.id]);
    expect((await settledCard(h, 0, first.card.id)).locks).toMatchObject([{ state: 'removed', revoke_reason: 'replaced' }]);
    expect(await present(lockId, fresh.write)).toMatchObject({ opened: true });
    expect(await present(lockId, first.write)).toMatchObject({ opened: false });
    expect(await present(lockId, copy.write)).toMatchObject({ opened: false });
  });

  it('writes universal and management cards for rooms or for all rooms; each opens exactly its rooms', async () => {
    const h = await legacyHotel(3);
    const end = at(7, '12:00:00');
    const master = await writeCard(h, { uid: newUid(), kind: 'universal', room_ids: [h.rooms[0]!.id, h.rooms[2]!.id], end_time: end, note: 'Housekeeping 2F' });
    expect(master.card).toMatchObject({
      kind: 'universal',
      tenant_id: null,
      room_id: null,
      all_rooms: 0,
      end_time: end,
      permanent: 0,
      note: 'Housekeeping 2F',
      name: 'Housekeeping 2F',
    });
    expect(master.card.locks.map((l) => l.room_id).sort()).toEqual([h.rooms[0]!.id, h.rooms[2]!.id].sort());
    const everywhere = await writeCard(h, { uid: newUid(), kind: 'management', all: 1, start_time: at(0, '00:00:00'), note: 'Manager' });
    expect(everywhere.card).toMatchObject({ kind: 'management', all_rooms: 1, start_time: at(0, '00:00:00'), end_time: null, permanent: 1 });
    await keysOnLocks(h);
    expect(await present(h.lockIds[0]!, master.write)).toMatchObject({ opened: true });
    expect(await present(h.lockIds[1]!, master.write)).toMatchObject({ opened: false, outcome: 'wrong_room' });
    expect(await present(h.lockIds[2]!, master.write)).toMatchObject({ opened: true });
    for (const lockId of h.lockIds) expect(await present(lockId, everywhere.write)).toMatchObject({ opened: true });
    // Listed on each of its locks.
    expect(
      (await client().call<LegacyPage<LegacyCard>>('lock/noteCardList', { room_id: h.rooms[1]!.id, kind: 'management' }, { token: h.token })).data.list.map(
        (x) => x.id,
      ),
    ).toEqual([everywhere.card.id]);
    // A universal card is not a guest's: the desk finds no guest.
    expect(await client().call('passenger/getRoomInfo', { card_num: master.card.card_num }, { token: h.token })).toMatchObject({ errno: 0, data: [] });
  });
});

describe('cards sent over the air over the legacy protocol', () => {
  it("pushes a card number to its locks for a stay, a room or several rooms, answers each lock's delivery state, and the numbers open exactly those locks", async () => {
    const h = await legacyHotel(3);
    const stay = await checkIn(h, 0, 'Omar Haddad');
    const c = client();
    const forStay = newCardNumber();
    const sent = await c.call<LegacyCard>('room/sendCard', { card_num: forStay, tenant_id: stay.id, note: 'Spare' }, { token: h.token });
    expect(sent).toMatchObject({
      errno: 0,
      data: {
        card_num: forStay,
        kind: 'room',
        medium: 'number',
        state: 'issued',
        tenant_id: stay.id,
        name: 'Omar Haddad',
        end_time: stay.check_out_time,
        locks: [{ room_id: h.rooms[0]!.id, state: 'pending', state_text: 'Sending to the lock' }],
      },
    });
    expect((await settledCard(h, 0, sent.data.id)).locks).toMatchObject([{ state: 'on_lock', error: null }]);
    expect(await useNumber(h.lockIds[0]!, forStay)).toMatchObject({ opened: true });

    const forRoom = newCardNumber();
    const roomCard = await c.call<LegacyCard>(
      'room/sendCard',
      { card_num: forRoom, room_id: h.rooms[1]!.id, end_time: at(3, '12:00:00'), note: 'Contractor' },
      { token: h.token },
    );
    expect(roomCard).toMatchObject({
      errno: 0,
      data: { kind: 'room', tenant_id: null, room_id: h.rooms[1]!.id, name: 'Contractor', end_time: at(3, '12:00:00') },
    });

    // One lock offline: that lock's delivery fails, with the reason in the request's language.
    await sc.control('PATCH', `/locks/${h.lockIds[2]}`, { online: false });
    const several = newCardNumber();
    const master = await c.call<LegacyCard>(
      'room/sendCardEncryption',
      { card_num: several, room_ids: [h.rooms[0]!.id, h.rooms[2]!.id], end_time: at(5, '12:00:00'), note: 'Floor 1' },
      { token: h.token },
    );
    expect(master).toMatchObject({ errno: 0, data: { kind: 'universal', medium: 'number', room_id: null } });
    expect(master.data.locks.map((l) => [l.room_id, l.state]).sort()).toEqual(
      [
        [h.rooms[0]!.id, 'pending'],
        [h.rooms[2]!.id, 'pending'],
      ].sort(),
    );
    const settled = await settledCard(h, 0, master.data.id);
    expect(settled.locks.find((l) => l.room_id === h.rooms[0]!.id)).toMatchObject({ state: 'on_lock' });
    expect(settled.locks.find((l) => l.room_id === h.rooms[2]!.id)).toMatchObject({
      state: 'failed',
      error: 'lock_offline',
      error_text: 'The lock is offline',
    });
    await sc.control('PATCH', `/locks/${h.lockIds[2]}`, { online: true });
    const staffCard = await c.call<LegacyCard>(
      'room/sendCardEncryption',
      { card_num: newCardNumber(), kind: 'management', room_ids: [h.rooms[1]!.id] },
      { token: h.staffToken },
    );
    expect(staffCard).toMatchObject({ errno: 0, data: { kind: 'management', end_time: null, permanent: 1 } });

    expect((await settledCard(h, 1, roomCard.data.id)).locks).toMatchObject([{ state: 'on_lock' }]);
    expect(await useNumber(h.lockIds[1]!, forRoom)).toMatchObject({ opened: true });
    expect(await useNumber(h.lockIds[0]!, forRoom)).toMatchObject({ opened: false });
    expect(await useNumber(h.lockIds[0]!, several)).toMatchObject({ opened: true });
    expect(await useNumber(h.lockIds[1]!, several)).toMatchObject({ opened: false });
    // The number of a card in use is not sent again.
    expect(await c.call('room/sendCard', { card_num: forStay, room_id: h.rooms[1]!.id }, { token: h.token })).toMatchObject({ errno: 100006 });

    // Read at the desk like a written card; taken back, it comes off its lock.
    expect((await c.call<Record<string, unknown>[]>('passenger/getRoomInfo', { card_num: forStay }, { token: h.token })).data).toMatchObject([
      { manage_id: stay.guests[0]!.manage_id, card: { medium: 'number' } },
    ]);
    expect(await c.call('passenger/deleteCardByCardId', { card_num: forStay }, { token: h.token })).toMatchObject({ errno: 0, data: { state: 'returned' } });
    expect((await settledCard(h, 0, sent.data.id)).locks).toMatchObject([{ state: 'removed', revoke_reason: 'returned' }]);
    expect(await useNumber(h.lockIds[0]!, forStay)).toMatchObject({ opened: false });
  });
});

describe("the hotel's card encryption over the legacy protocol", () => {
  it('pushes key sets to the locks with per-lock states, rotates them (cards written before keep opening), lists them without key material, deletes only a retired unused one', async () => {
    const h = await legacyHotel(2);
    const c = client();
    const fresh = await c.call<{ list: LegacyKeySet[]; locks: LegacyKeySync[] }>('room/cardEncryptionList', {}, { token: h.token, language: 'zh-CN' });
    expect(fresh).toMatchObject({ errno: 0, data: { list: [] } });
    expect(fresh.data.locks.map((l) => [l.room_id, l.lock_id, l.state, l.state_text])).toEqual(
      h.rooms.map((r, i) => [r.id, h.lockIds[i], 'never', '尚未下发到门锁']),
    );

    // The first push makes the hotel's first key set.
    const pushed = await c.call<{ list: LegacyKeySync[] }>('room/sendCardEncryptionSyntony', {}, { token: h.token });
    expect(pushed.errno).toBe(0);
    expect(pushed.data.list.map((l) => [l.room_id, l.state]).sort()).toEqual(h.rooms.map((r) => [r.id, 'pending']).sort());
    const delivered = await keysOnLocks(h);
    for (const l of delivered) expect(l).toMatchObject({ error: null, delivered_time: expect.any(String) });
    const first = (await c.call<{ list: LegacyKeySet[] }>('room/cardEncryptionList', {}, { token: h.token })).data.list;
    expect(first).toMatchObject([{ name: 'Key set 1', sector: 1, is_active: 1, retired_time: null, issued_cards: 0, fingerprint: expect.any(String) }]);

    const stay = await checkIn(h, 0, 'Before Rotation');
    const before = await writeCard(h, { uid: newUid(), tenant_id: stay.id });
    const rotated = await c.call<LegacyKeySet>('room/cardEncryption', { name: 'Spring', sector: 2 }, { token: h.token });
    expect(rotated).toMatchObject({ errno: 0, data: { name: 'Spring', sector: 2, is_active: 1, issued_cards: 0 } });
    const listed = await c.call<{ list: LegacyKeySet[] }>('room/cardEncryptionList', {}, { token: h.token });
    expect(listed.data.list.map((k) => [k.id, k.name, k.is_active, k.issued_cards])).toEqual([
      [rotated.data.id, 'Spring', 1, 0],
      [first[0]!.id, 'Key set 1', 0, 1],
    ]);
    expect(listed.data.list[1]).toMatchObject({ retired_time: expect.any(String), keep_until: stay.check_out_time });
    // No key material anywhere in the answers: not the key A a card carries, nor any key field.
    const text = JSON.stringify([listed, rotated]);
    expect(text).not.toContain(before.write.trailer.data.slice(0, 12));
    expect(text).not.toMatch(/sectorKey|desKey|macKey|keysEncrypted|open_keys/);

    // Only a push to one room: that lock's state, among all of them.
    const one = await c.call<{ list: LegacyKeySync[] }>('room/sendCardEncryptionSyntony', { room_ids: [h.rooms[1]!.id] }, { token: h.token });
    expect(one.data.list.find((l) => l.room_id === h.rooms[1]!.id)).toMatchObject({ state: 'pending' });

    expect(await c.call('room/deleteCardEncryption', { id: rotated.data.id }, { token: h.token })).toMatchObject({
      errno: 100006,
      errmsg: 'The key set in use cannot be deleted: create a new one to replace it first',
    });
    expect(await c.call('room/deleteCardEncryption', { id: first[0]!.id }, { token: h.token })).toMatchObject({
      errno: 100006,
      errmsg: '1 cards that have not expired use this key set: it cannot be deleted',
    });
    // Rotated again: Spring retires, and no card was written under it, so it can go.
    const summer = await c.call<LegacyKeySet>('room/cardEncryption', { name: 'Summer' }, { token: h.token });
    expect(summer.data).toMatchObject({ sector: 2, is_active: 1 });
    expect(await c.call('room/deleteCardEncryption', { id: rotated.data.id }, { token: h.token })).toMatchObject({ errno: 0, data: null });
    expect((await c.call<{ list: LegacyKeySet[] }>('room/cardEncryptionList', {}, { token: h.token })).data.list.map((k) => k.id)).toEqual([
      summer.data.id,
      first[0]!.id,
    ]);

    // The locks learn the new list: a card written now opens, and so does the one written under the first set.
    await keysOnLocks(h);
    const after = await writeCard(h, { uid: newUid(), tenant_id: stay.id, mode: 'duplicate' });
    expect(after.write.sector).toBe(2);
    expect(after.write.trailer.data.slice(0, 12)).not.toBe(before.write.trailer.data.slice(0, 12));
    await keysOnLocks(h);
    expect(await present(h.lockIds[0]!, after.write)).toMatchObject({ opened: true });
    expect(await present(h.lockIds[0]!, before.write)).toMatchObject({ opened: true });

    // Key sets are the hotel's to manage: a staff member may push them, not make or delete them.
    expect(await c.call('room/cardEncryption', { name: 'Staff keys' }, { token: h.staffToken })).toMatchObject({ errno: 100004 });
    expect(await c.call('room/deleteCardEncryption', { id: first[0]!.id }, { token: h.staffToken })).toMatchObject({ errno: 100004 });
    expect(await c.call('room/cardEncryptionList', {}, { token: h.staffToken })).toMatchObject({ errno: 100004 });
    expect((await c.call('room/sendCardEncryptionSyntony', {}, { token: h.staffToken })).errno).toBe(0);
  });
});

describe('bad input and refusals of the card actions', () => {
  it('answers translated errors that name the fields the client sent', async () => {
    const h = await legacyHotel(1);
    const stay = await checkIn(h, 0, 'Field Guest');
    const c = client();
    const call = (path: string, payload: Record<string, unknown>, language = 'en') =>
      c.call<{ fields?: Record<string, string> } | null>(path, payload, { token: h.token, language });

    // Card number is required (spec §5), in the request's language.
    expect(await call('passenger/getRoomInfo', {})).toMatchObject({
      errno: 100001,
      errmsg: 'Card number is required',
      data: { fields: { card_num: 'Card number is required' } },
    });
    expect(await call('passenger/getRoomInfo', { card_num: '  ' }, 'zh-CN')).toMatchObject({
      errno: 100001,
      errmsg: '卡号不能为空',
      data: { fields: { card_num: '卡号不能为空' } },
    });
    expect(await call('passenger/getRoomInfo', { card_num: '12AB' })).toMatchObject({
      errno: 100001,
      data: { fields: { card_num: 'The card number can only contain digits' } },
    });
    expect(await call('passenger/deleteCardByCardId', {})).toMatchObject({
      errno: 100001,
      errmsg: 'Card number is required',
      data: { fields: { card_num: 'Card number is required' } },
    });
    expect(await call('passenger/deleteCardByCardId', { card_num: '' }, 'ja')).toMatchObject({
      errno: 100001,
      data: { fields: { card_num: expect.any(String) } },
    });
    expect(await call('passenger/deleteCardByCardId', { card_id: 'x' })).toMatchObject({ errno: 100001, data: { fields: { card_id: expect.any(String) } } });
    expect(await call('room/sendCard', { tenant_id: stay.id })).toMatchObject({
      errno: 100001,
      errmsg: 'Card number is required',
      data: { fields: { card_num: 'Card number is required' } },
    });
    expect(await call('room/sendCardEncryption', { card_num: '123', room_ids: [] })).toMatchObject({
      errno: 100001,
      data: { fields: { room_ids: expect.any(String) } },
    });
    expect(await call('room/sendCard', { card_num: '123' })).toMatchObject({ errno: 100001, data: { fields: { room_id: expect.any(String) } } });
    expect(await call('room/sendCard', { card_num: '123', room_id: h.rooms[0]!.id, start_time: at(3, '10:00:00'), end_time: at(2, '10:00:00') })).toMatchObject(
      { errno: 100001, data: { fields: { end_time: 'The end must be later than the start' } } },
    );
    expect(await call('room/sendCard', { card_num: '123', room_id: h.rooms[0]!.id, end_time: '2026-02-30 10:00:00' })).toMatchObject({
      errno: 100001,
      data: { fields: { end_time: 'Incorrect time format' } },
    });

    expect(await call('room/cardAdd', { uid: 'XYZ', tenant_id: stay.id })).toMatchObject({
      errno: 100001,
      data: { fields: { uid: 'The card UID is not valid (8 or 14 hexadecimal characters)' } },
    });
    expect(await call('room/cardAdd', { uid: newUid() })).toMatchObject({ errno: 100001, data: { fields: { tenant_id: expect.any(String) } } });
    expect(await call('room/cardAdd', { uid: newUid(), kind: 'universal' })).toMatchObject({
      errno: 100001,
      data: { fields: { room_ids: expect.any(String) } },
    });
    expect(await call('room/cardAdd', { uid: newUid(), kind: 'laser', tenant_id: stay.id })).toMatchObject({
      errno: 100001,
      data: { fields: { kind: expect.any(String) } },
    });
    expect(await call('room/cardAdd', { uid: newUid(), tenant_id: stay.id, mode: 'copy' })).toMatchObject({
      errno: 100001,
      data: { fields: { mode: expect.any(String) } },
    });
    expect(
      await call('room/cardAdd', { uid: newUid(), kind: 'universal', room_ids: [h.rooms[0]!.id], start_time: at(3, '10:00:00'), end_time: at(2, '10:00:00') }),
    ).toMatchObject({ errno: 100001, data: { fields: { end_time: 'The end must be later than the start' } } });
    expect(await call('room/cardAdd', { uid: newUid(), tenant_id: stay.id, note: 'n'.repeat(101) })).toMatchObject({
      errno: 100001,
      data: { fields: { note: expect.any(String) } },
    });
    expect(await call('room/addCardStepTwoNew', { card_id: 1 })).toMatchObject({
      errno: 100001,
      data: { fields: { uid: expect.any(String), blocks: expect.any(String) } },
    });
    expect(await call('room/addCardStepTwoNew', { card_id: 1, uid: newUid(), blocks: [{ block: 4, data: 'ABC' }] })).toMatchObject({
      errno: 100001,
      data: { fields: { 'blocks.0.data': 'Data must be 32 characters (hexadecimal)' } },
    });
    expect(await call('room/cardEncryption', {})).toMatchObject({ errno: 100001, data: { fields: { name: expect.any(String) } } });
    expect(await call('room/cardEncryption', { name: 'Keys', sector: 16 })).toMatchObject({
      errno: 100001,
      data: { fields: { sector: 'The sector must be between 1 and 15' } },
    });
    expect(await call('lock/noteCardList', {})).toMatchObject({ errno: 100001, data: { fields: { room_id: expect.any(String) } } });
    expect(await call('lock/noteCardList', { room_id: h.rooms[0]!.id, scope: 'everything' })).toMatchObject({
      errno: 100001,
      data: { fields: { scope: expect.any(String) } },
    });

    // Well formed but nothing there.
    expect(await call('passenger/getRoomInfo', { card_num: '4000000001' })).toMatchObject({ errno: 0, data: [] });
    expect(await call('passenger/deleteCardByCardId', { card_num: '4000000001' })).toMatchObject({
      errno: 100005,
      errmsg: 'This card is not issued at the moment',
    });
    expect(await call('passenger/deleteCardByCardId', { card_id: 999_999_999 })).toMatchObject({ errno: 100005, errmsg: 'Card not found' });
    expect(await call('room/addCardStepTwoNew', { card_id: 999_999_999, cancel: 1 })).toMatchObject({ errno: 100005, errmsg: 'Card not found' });
    expect(await call('room/deleteCardEncryption', { id: 999_999_999 })).toMatchObject({ errno: 100005, errmsg: 'Key set not found' });
    expect(await call('room/cardAdd', { uid: newUid(), tenant_id: 999_999_999 })).toMatchObject({ errno: 100005 });
    expect(await call('lock/noteCardList', { lock_id: 'no-such-lock' })).toMatchObject({ errno: 100005 });

    // A card id and a card number that do not belong together.
    const card = await writeCard(h, { uid: newUid(), tenant_id: stay.id });
    expect(await call('passenger/deleteCardByCardId', { card_id: card.card.id, card_num: '4000000001' })).toMatchObject({
      errno: 100005,
      errmsg: 'Card not found',
    });
    expect((await call('passenger/getRoomInfo', { card_num: card.card.card_num })).data).toHaveLength(1);
    // Nothing of the refusals reached the card.
    expect(await ctx.deps.prisma.cardIssue.findMany({ where: { hotelId: h.hotel.id }, select: { id: true, state: true } })).toEqual([
      { id: card.card.id, state: 'issued' },
    ]);
  });

  it("answers hotel B with 100005 (and no guest) for hotel A's cards, key sets, stays, rooms and locks, and changes nothing of A", async () => {
    const a = await legacyHotel(2);
    const b = await legacyHotel(1);
    const stayA = await checkIn(a, 0, 'A Guest');
    const c = client();
    const cardA = await writeCard(a, { uid: newUid(), tenant_id: stayA.id });
    const reservedA = (await c.call<LegacyWrite>('room/cardAdd', { uid: newUid(), tenant_id: stayA.id, mode: 'duplicate' }, { token: a.token })).data;
    const numberA = newCardNumber();
    const sentA = (await c.call<LegacyCard>('room/sendCard', { card_num: numberA, tenant_id: stayA.id }, { token: a.token })).data;
    await settledCard(a, 0, sentA.id);
    const keySetA = (await c.call<LegacyKeySet>('room/cardEncryption', { name: 'A spring' }, { token: a.token })).data;
    await keysOnLocks(a);
    const before = await ctx.deps.prisma.cardIssue.findMany({ where: { hotelId: a.hotel.id }, orderBy: { id: 'asc' } });
    const grantsBefore = await ctx.deps.prisma.cardGrant.findMany({ where: { hotelId: a.hotel.id }, orderBy: { id: 'asc' } });

    const calls: [string, Record<string, unknown>][] = [
      ['passenger/deleteCardByCardId', { card_num: cardA.card.card_num }],
      ['passenger/deleteCardByCardId', { card_id: cardA.card.id }],
      ['passenger/deleteCardByCardId', { card_num: numberA }],
      ['room/addCardStepTwoNew', { card_id: reservedA.id, uid: reservedA.uid, blocks: reservedA.blocks }],
      ['room/addCardStepTwoNew', { card_id: reservedA.id, cancel: 1 }],
      ['room/cardAdd', { uid: newUid(), tenant_id: stayA.id }],
      ['room/cardAdd', { uid: newUid(), kind: 'universal', room_ids: [a.rooms[0]!.id] }],
      ['room/sendCard', { card_num: newCardNumber(), tenant_id: stayA.id }],
      ['room/sendCard', { card_num: newCardNumber(), room_id: a.rooms[1]!.id }],
      ['room/sendCardEncryption', { card_num: newCardNumber(), room_ids: [a.rooms[0]!.id] }],
      ['room/deleteCardEncryption', { id: keySetA.id }],
      ['room/sendCardEncryptionSyntony', { room_ids: [a.rooms[0]!.id] }],
      ['lock/noteCardList', { room_id: a.rooms[0]!.id }],
      ['lock/noteCardList', { lock_id: a.lockIds[0] }],
    ];
    for (const [path, payload] of calls) {
      const res = await c.call(path, payload, { token: b.token });
      expect([path, payload, res.errno]).toEqual([path, payload, 100005]);
    }
    // The desk of hotel B reading hotel A's cards finds no guest.
    expect(await c.call('passenger/getRoomInfo', { card_num: cardA.card.card_num }, { token: b.token })).toMatchObject({ errno: 0, data: [] });
    expect(await c.call('passenger/getRoomInfo', { card_num: numberA }, { token: b.token })).toMatchObject({ errno: 0, data: [] });
    // Hotel B's own lists show nothing of A.
    const listB = await c.call<{ list: LegacyKeySet[]; locks: LegacyKeySync[] }>('room/cardEncryptionList', {}, { token: b.token });
    expect(listB.data.list).toEqual([]);
    expect(listB.data.locks.map((l) => l.room_id)).toEqual([b.rooms[0]!.id]);
    expect((await c.call<LegacyPage<LegacyCard>>('lock/noteCardList', { room_id: b.rooms[0]!.id, scope: 'all' }, { token: b.token })).data.total).toBe(0);

    expect(await ctx.deps.prisma.cardIssue.findMany({ where: { hotelId: a.hotel.id }, orderBy: { id: 'asc' } })).toEqual(before);
    expect(await ctx.deps.prisma.cardGrant.findMany({ where: { hotelId: a.hotel.id }, orderBy: { id: 'asc' } })).toEqual(grantsBefore);
    expect(await present(a.lockIds[0]!, cardA.write)).toMatchObject({ opened: true });
    expect(await useNumber(a.lockIds[0]!, numberA)).toMatchObject({ opened: true });
    // Hotel A's card at hotel B's lock: B's keys cannot even read it.
    expect(await present(b.lockIds[0]!, cardA.write)).toMatchObject({ opened: false });
  });
});
