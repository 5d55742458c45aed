import { randomBytes, randomUUID } from 'node:crypto';
import { decodeCard } from '@console/card-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, AuthedContext } from '../../context';
import { hotelWithDoors } from '../../test/lock-factories';
import { uniqueMobile } from '../../test/factories';
import type { CardWriteDto } from '../cards/card-dto';
import { reserveCard } from '../cards/card-issue';
import { listCards } from '../cards/card-lookup';
import { confirmCard } from '../cards/card-write';
import { transaction } from '../../db/transaction';
import { ensureDoorNumber, lockKeyEntries } from '../cards/card-keys';
import { pollLockRecords } from '../locks/records';
import { checkIn } from '../stays/check-in';
import { checkOut } from '../stays/check-out';
import { listRecordsByPerson, listUnlockRecords } from '../unlock-records/unlock-record.service';
import { setSharedDoor, unsetSharedDoor } from './shared-door.service';
import { startSimDesk, stopSimDesk, type SimDesk } from '../../test/sim-desk';

/**
 * Room cards and shared doors (issue 20 §5, docs/shared-doors.md "Room cards"): a card written at
 * the desk for a stay names the shared doors its room is served by (card format version 2); the
 * doors' simulated locks (apps/lock-sim, reading cards as offline locks do, with the keys the real
 * delivery engine pushed through the real TTLock adapter) open for it and refuse other rooms'
 * cards, ended cards and other hotels' cards; a door's records name the stay.
 */

let { sim, client, ctx, workers, api } = {} as SimDesk;
beforeAll(async () => void ({ sim, client, ctx, workers, api } = await startSimDesk()));
afterAll(() => stopSimDesk({ sim, ctx, workers }));

type Staff = AuthedContext & { actor: Actor };

const hotel = (count: number, doors = 1) => hotelWithDoors(ctx.deps, client, { rooms: count, doors, prefix: 'D' });

async function stayIn(staff: Staff, roomId: number, name = 'Lin Wei') {
  return checkIn(staff, {
    roomId,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
    guests: [{ name, mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
}

const newUid = () => randomBytes(4).toString('hex').toUpperCase();

/** What a desk reader leaves on the card: the blocks written, and the key A the trailer set. */
function writtenCard(write: CardWriteDto, uid: string) {
  return { uid, sector: write.sector, keyA: write.trailer.data.slice(0, 12), blocks: write.blocks };
}

/** Reserves, "writes" and confirms a room card for a stay; answers what the reader would read from it. */
async function roomCard(staff: Staff, stayId: number, extra: Partial<Parameters<typeof reserveCard>[1]> = {}) {
  const uid = newUid();
  const write = await reserveCard(staff, { uid, kind: 'room', stayId, ...extra } as Parameters<typeof reserveCard>[1]);
  const issue = await confirmCard(staff, { issueId: write.issue.id, uid, blocks: write.blocks });
  return { write, issue, dump: writtenCard(write, uid) };
}

/** Every card key row of the hotel (rooms' locks and doors') is on its lock. */
async function keysOnLocks(hotelId: number) {
  await expect
    .poll(
      async () => {
        const rows = await ctx.deps.prisma.lockCardKeys.findMany({ where: { hotelId }, select: { deliveryState: true, doorLockId: true } });
        return rows.length > 0 && rows.some((r) => r.doorLockId !== null) && rows.every((r) => r.deliveryState === 'on_lock');
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
}

/** The door grants of a writing, once none is still being worked on. */
async function doorGrantsSettled(issueId: number) {
  let rows: { doorLockId: number | null; deliveryState: string; revokeReason: string | null }[] = [];
  await expect
    .poll(
      async () => {
        rows = await ctx.deps.prisma.cardGrant.findMany({
          where: { issueId, doorLockId: { not: null } },
          select: { doorLockId: true, deliveryState: true, revokeReason: true },
        });
        return rows.every((g) => !['pending', 'removing'].includes(g.deliveryState));
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
  return rows;
}

const present = (simLockId: string, dump: ReturnType<typeof writtenCard>) => client.presentCard(Number(simLockId), dump);

describe('room cards open the shared doors serving their room', () => {
  it('opens the entrance serving its room (the record names the stay), not a door of other rooms; another room’s card is refused; after check-out the entrance refuses it', async () => {
    const h = await hotel(2, 2);
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const [entrance, gym] = h.doors as [(typeof h.doors)[0], (typeof h.doors)[0]];
    await setSharedDoor(h.owner, { lockId: entrance.id, kind: 'entrance', roomIds: [a.id] });
    await setSharedDoor(h.owner, { lockId: gym.id, kind: 'gym', roomIds: [b.id] });
    const stayA = await stayIn(h.staff, a.id, 'Ada Brandt');
    const stayB = await stayIn(h.staff, b.id, 'Bo Chen');

    const cardA = await roomCard(h.staff, stayA.id);
    const cardB = await roomCard(h.staff, stayB.id);
    expect(cardA.issue).toMatchObject({ state: 'issued', needsRewrite: false, missingDoors: [] });
    // Its grants list its room only; the door's grant is its own row, on the door's lock.
    expect(cardA.issue.grants.map((g) => g.roomId)).toEqual([a.id]);
    expect(
      await ctx.deps.prisma.cardGrant.findMany({ where: { issueId: cardA.issue.id, doorLockId: { not: null } }, select: { doorLockId: true, roomId: true } }),
    ).toEqual([{ doorLockId: entrance.id, roomId: a.id }]);
    // What is written on the card: version 2, the room and the entrance's door number.
    const doorNumber = (await ctx.deps.prisma.lock.findUniqueOrThrow({ where: { id: entrance.id } })).doorNumber;
    expect(doorNumber).toBeGreaterThan(0);
    const keys = await lockKeyEntries(ctx.deps.prisma, ctx.deps.config.cardKeySecret, h.hotel.id);
    expect(decodeCard(cardA.dump, keys)).toMatchObject({ ok: true, card: { version: 2, doors: [doorNumber] } });

    await keysOnLocks(h.hotel.id);
    expect(await present(entrance.simLockId, cardA.dump)).toMatchObject({ opened: true, outcome: 'opened' });
    expect(await present(a.simLockId, cardA.dump)).toMatchObject({ opened: true });
    // The gym serves room B only; room B's card does not open the entrance.
    expect(await present(gym.simLockId, cardA.dump)).toMatchObject({ opened: false, outcome: 'wrong_room' });
    expect(await present(entrance.simLockId, cardB.dump)).toMatchObject({ opened: false, outcome: 'wrong_room' });
    expect(await present(gym.simLockId, cardB.dump)).toMatchObject({ opened: true });

    // The entrance's records: the stay whose card opened it, and its room; the door is named.
    await expect
      .poll(
        async () => {
          await pollLockRecords(ctx.deps, { hotelId: h.hotel.id, all: true });
          return ctx.deps.prisma.unlockRecord.findMany({
            where: { hotelId: h.hotel.id, doorLockId: entrance.id, success: true },
            select: { roomId: true, stayId: true, credential: true, operator: true, style: true },
          });
        },
        { timeout: 20_000, interval: 200 },
      )
      .toEqual([{ roomId: a.id, stayId: stayA.id, credential: `card:${cardA.issue.id}`, operator: 'Ada Brandt', style: 'card' }]);
    const roomRecords = (await listUnlockRecords(h.staff, { roomId: a.id })).items;
    expect(roomRecords).toContainEqual(
      expect.objectContaining({
        success: true,
        stayId: stayA.id,
        door: { lockId: entrance.id, name: expect.any(String) },
        credential: `card:${cardA.issue.id}`,
      }),
    );
    // The room's own lock's record names no door.
    expect(roomRecords.filter((r) => r.door === null).every((r) => r.stayId === null)).toBe(true);
    // Over tRPC, by person: the same stay and door.
    const byPerson = await api.query('lock.recordsByPerson', { person: 'Ada' }, { token: h.staffToken });
    expect(byPerson.data?.items).toContainEqual(expect.objectContaining({ stayId: stayA.id, door: expect.objectContaining({ lockId: entrance.id }) }));

    // Check-out ends the card on the door too: denylisted there, so the entrance refuses it.
    await checkOut(h.staff, { stayId: stayA.id });
    expect(await doorGrantsSettled(cardA.issue.id)).toEqual([expect.objectContaining({ doorLockId: entrance.id, deliveryState: 'removed' })]);
    expect(await present(entrance.simLockId, cardA.dump)).toMatchObject({ opened: false, outcome: 'denylisted' });
  });

  it('a card written before the door served its room does not open it and says it must be written again; the rewrite opens it; a door that stops serving the room refuses its cards', async () => {
    const h = await hotel(1, 1);
    const [a] = h.rooms as [(typeof h.rooms)[0]];
    const [entrance] = h.doors as [(typeof h.doors)[0]];
    const stay = await stayIn(h.staff, a.id);
    const before = await roomCard(h.staff, stay.id);
    expect(before.issue.missingDoors).toEqual([]);
    await setSharedDoor(h.owner, { lockId: entrance.id, kind: 'entrance', roomIds: [a.id] });
    const [listed] = (await listCards(h.staff, { stayId: stay.id })).items;
    expect(listed).toMatchObject({ id: before.issue.id, needsRewrite: true, missingDoors: [expect.any(String)] });
    await keysOnLocks(h.hotel.id);
    // Version 1 on the card: it names no door.
    expect(await present(entrance.simLockId, before.dump)).toMatchObject({ opened: false, outcome: 'wrong_room' });
    expect(await present(a.simLockId, before.dump)).toMatchObject({ opened: true });

    // Written again (the same card, the same stay): it opens the entrance, and nothing is missing.
    const write = await reserveCard(h.staff, { uid: before.dump.uid, kind: 'room', stayId: stay.id, replaces: before.issue.id });
    const rewritten = await confirmCard(h.staff, { issueId: write.issue.id, uid: before.dump.uid, blocks: write.blocks });
    expect(rewritten).toMatchObject({ state: 'issued', needsRewrite: false, missingDoors: [] });
    const dump = writtenCard(write, before.dump.uid);
    expect(await present(entrance.simLockId, dump)).toMatchObject({ opened: true });

    // The door stops serving the room: the card is denylisted there (it would open it offline otherwise).
    await setSharedDoor(h.owner, { lockId: entrance.id, kind: 'entrance', roomIds: [] });
    expect(await doorGrantsSettled(rewritten.id)).toEqual([expect.objectContaining({ deliveryState: 'removed', revokeReason: 'door_unserved' })]);
    expect(await present(entrance.simLockId, dump)).toMatchObject({ opened: false, outcome: 'denylisted' });
    expect(await present(a.simLockId, dump)).toMatchObject({ opened: true });
  });

  it('another hotel’s card never opens a door, and its records there are not kept', async () => {
    const h1 = await hotel(1, 1);
    const h2 = await hotel(1, 1);
    await setSharedDoor(h1.owner, { lockId: h1.doors[0]!.id, kind: 'entrance', roomIds: [h1.rooms[0]!.id] });
    await setSharedDoor(h2.owner, { lockId: h2.doors[0]!.id, kind: 'entrance', roomIds: [h2.rooms[0]!.id] });
    const card1 = await roomCard(h1.staff, (await stayIn(h1.staff, h1.rooms[0]!.id)).id);
    const card2 = await roomCard(h2.staff, (await stayIn(h2.staff, h2.rooms[0]!.id)).id);
    await keysOnLocks(h1.hotel.id);
    await keysOnLocks(h2.hotel.id);
    expect(await present(h1.doors[0]!.simLockId, card1.dump)).toMatchObject({ opened: true });
    // The other hotel's keys do not even open the card's sector.
    expect(await present(h2.doors[0]!.simLockId, card1.dump)).toMatchObject({ opened: false, outcome: 'unreadable' });
    expect(await present(h1.doors[0]!.simLockId, card2.dump)).toMatchObject({ opened: false, outcome: 'unreadable' });
    // Another hotel's door cannot be made to serve this hotel's rooms, nor this hotel's door another's.
    await expect(setSharedDoor(h1.owner, { lockId: h2.doors[0]!.id, kind: 'entrance', roomIds: [h1.rooms[0]!.id] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(setSharedDoor(h1.owner, { lockId: h1.doors[0]!.id, kind: 'entrance', roomIds: [h2.rooms[0]!.id] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await pollLockRecords(ctx.deps, { hotelId: h2.hotel.id, all: true });
    expect(await ctx.deps.prisma.unlockRecord.count({ where: { doorLockId: h2.doors[0]!.id, credential: `card:${card1.issue.id}` } })).toBe(0);
    // Another hotel's door's records are not this hotel's: its lock id in a filter finds nothing.
    const mine = await listRecordsByPerson(h1.staff, { credential: `card:${card2.issue.id}` });
    expect(mine.items).toEqual([]);
  });

  it('door numbers given at once to several doors are distinct, each kept once given, and per hotel', async () => {
    const h = await hotel(0, 4);
    const other = await hotel(0, 1);
    const numbers = await Promise.all([...h.doors, ...h.doors].map((d) => transaction(ctx.deps, (tx) => ensureDoorNumber(tx, h.hotel.id, d.id))));
    // Asked twice for each door, concurrently: one number per door, four distinct numbers.
    expect(new Set(numbers).size).toBe(4);
    expect(numbers.slice(0, 4)).toEqual(numbers.slice(4));
    expect(numbers.slice(0, 4).sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
    // Another hotel's doors count from 1 again; another hotel's lock id is not found here.
    expect(await transaction(ctx.deps, (tx) => ensureDoorNumber(tx, other.hotel.id, other.doors[0]!.id))).toBe(1);
    await expect(transaction(ctx.deps, (tx) => ensureDoorNumber(tx, h.hotel.id, other.doors[0]!.id))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a room served by more doors than a card can name is refused with a message; a plain lock again takes the cards off the door', async () => {
    const h = await hotel(1, 7);
    const [a] = h.rooms as [(typeof h.rooms)[0]];
    for (const door of h.doors) await setSharedDoor(h.owner, { lockId: door.id, kind: 'other', roomIds: [a.id] });
    const stay = await stayIn(h.staff, a.id);
    await expect(reserveCard(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id })).rejects.toMatchObject({
      code: 'VALIDATION',
      options: expect.objectContaining({ messageKey: 'cards.errors.tooManyDoors' }),
    });
    await unsetSharedDoor(h.owner, { lockId: h.doors[6]!.id });
    const card = await roomCard(h.staff, stay.id);
    expect((await ctx.deps.prisma.cardIssue.findUniqueOrThrow({ where: { id: card.issue.id } })).doorLockIds).toHaveLength(6);
    await unsetSharedDoor(h.owner, { lockId: h.doors[0]!.id });
    const grants = await doorGrantsSettled(card.issue.id);
    expect(grants.filter((g) => g.deliveryState === 'removed').map((g) => g.doorLockId)).toEqual([h.doors[0]!.id]);
  });
});

describe("the shared doors' card keys", () => {
  it('lists each shared door with where its card keys stand, sends them again to one door only, and finds no door of another hotel or a room’s own lock', async () => {
    const h = await hotel(1, 2);
    const other = await hotel(1, 1);
    const [room] = h.rooms as [(typeof h.rooms)[0]];
    const [entrance, gym] = h.doors as [(typeof h.doors)[0], (typeof h.doors)[0]];
    await setSharedDoor(h.owner, { lockId: entrance.id, kind: 'entrance', roomIds: [room.id] });
    await setSharedDoor(h.owner, { lockId: gym.id, kind: 'gym', roomIds: [room.id] });
    await setSharedDoor(other.owner, { lockId: other.doors[0]!.id, kind: 'entrance', roomIds: [other.rooms[0]!.id] });
    const opts = { token: h.ownerToken };

    // No card written yet, no keys: both doors say so, by kind (entrance before gym).
    const before = await api.query('card.doorKeyStates', undefined, opts);
    expect(before.data?.map((d) => [d.lockId, d.kind, d.deliveryState])).toEqual([
      [entrance.id, 'entrance', 'never'],
      [gym.id, 'gym', 'never'],
    ]);

    // Keys sent to every lock: the doors' keys reach their locks.
    expect((await api.mutation('card.syncKeys', {}, opts)).error).toBeUndefined();
    await keysOnLocks(h.hotel.id);
    const sent = await api.query('card.doorKeyStates', undefined, opts);
    expect(sent.data?.map((d) => d.deliveryState)).toEqual(['on_lock', 'on_lock']);
    expect(sent.data?.every((d) => d.deliveredAt !== null && d.lastError === null)).toBe(true);

    // Sent again to the entrance only (twice at once: both answered): the gym and the room's lock are left as they were.
    const versions = async () =>
      new Map(
        (await ctx.deps.prisma.lockCardKeys.findMany({ where: { hotelId: h.hotel.id }, select: { roomId: true, doorLockId: true, version: true } })).map(
          (r) => [r.doorLockId ?? `room ${r.roomId}`, r.version],
        ),
      );
    const was = await versions();
    const twice = await Promise.all([1, 2].map(() => api.mutation('card.syncKeys', { doorLockIds: [entrance.id] }, opts)));
    expect(twice.map((r) => r.error?.data.code)).toEqual([undefined, undefined]);
    const now = await versions();
    expect(now.get(entrance.id)).toBe(was.get(entrance.id)! + 2);
    expect(now.get(gym.id)).toBe(was.get(gym.id));
    expect(now.get(`room ${room.id}`)).toBe(was.get(`room ${room.id}`));
    const audit = await ctx.deps.prisma.auditLog.findFirst({ where: { hotelId: h.hotel.id, action: 'card.keys.sync' }, orderBy: { id: 'desc' } });
    expect(audit?.after).toEqual({ rooms: [], doors: [entrance.id] });
    await keysOnLocks(h.hotel.id);

    // Another hotel's door, or a room's own lock, is no shared door of this hotel: not found, nothing queued.
    const roomLockId = (await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: room.id }, select: { lockId: true } })).lockId!;
    for (const doorLockIds of [[other.doors[0]!.id], [roomLockId], [entrance.id, other.doors[0]!.id]]) {
      const refused = await api.mutation('card.syncKeys', { doorLockIds }, opts);
      expect(refused.error?.data.code).toBe('NOT_FOUND');
    }
    expect((await versions()).get(entrance.id)).toBe(now.get(entrance.id));
    // Each hotel lists its own doors only.
    expect((await api.query('card.doorKeyStates', undefined, { token: other.ownerToken })).data?.map((d) => d.lockId)).toEqual([other.doors[0]!.id]);
    // Numbers that are no ids are refused as such.
    for (const doorLockIds of [[1e308], [-1], ['%'], [1.5]]) {
      expect((await api.mutation('card.syncKeys', { doorLockIds } as never, opts)).error?.data.code).toBe('BAD_REQUEST');
    }
  });
});
