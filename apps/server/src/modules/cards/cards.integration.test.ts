import { randomBytes, randomUUID } from 'node:crypto';
import { cardNumberOfUid } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, AuthedContext } from '../../context';
import { actorContext, testMeta } from '../../test/harness';
import { pairSimLock } from '../../test/lock-factories';
import { simAdapter } from '../../test/ttlock-adapter';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { refreshLockStatus } from '../locks/lock-status';
import { pollLockRecords } from '../locks/records';
import { checkIn } from '../stays/check-in';
import { checkOut } from '../stays/check-out';
import { renewStay } from '../stays/renewal';
import { setLockData } from '../room/room-lock-data';
import { listUnlockRecords } from '../unlock-records/unlock-record.service';
import { cardKeyStates, createCardKeySet, deleteCardKeySet, listCardKeySets } from './card-keys.service';
import type { CardWriteDto } from './card-dto';
import { reportCardLost, returnCard } from './card-end';
import { reserveCard } from './card-issue';
import { listCards, lookupCard } from './card-lookup';
import { cardRoomFit } from './card-rooms';
import { sendCard } from './card-send';
import { confirmCard, voidReservation } from './card-write';
import { DENYLIST_PRUNE_MARGIN_MS, pruneCardDenylists } from './denylist-prune';
import { startSimDesk, stopSimDesk, type SimDesk } from '../../test/sim-desk';

/**
 * Room cards end to end without a browser: the data the server computes for a card (under the
 * hotel's keys, through the real service), "written" as a desk reader would (the blocks and the
 * trailer's key A on a card with that UID), read back and confirmed, then held to the room's
 * simulated lock (apps/lock-sim over HTTP, which reads cards as offline hotel locks do, with the
 * keys the delivery engine pushed to it through the real TTLock adapter and BullMQ workers).
 */

let { sim, client, ctx, workers, api } = {} as SimDesk;
beforeAll(async () => void ({ sim, client, ctx, workers, api } = await startSimDesk()));
afterAll(() => stopSimDesk({ sim, ctx, workers }));

type Staff = AuthedContext & { actor: Actor };

/** A hotel with rooms, each paired with a new simulated lock. */
async function hotelWithLocks(count = 2) {
  const h = await createHotelWithStaff(ctx.deps);
  const names = Array.from({ length: count }, (_, i) => `C${randomUUID().slice(0, 6)}-${i}`);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, names);
  const paired = [];
  for (const room of rooms) {
    const { lockId } = await client.lockWithGateway();
    await pairSimLock(ctx.deps, h.hotel.id, room.id, lockId);
    paired.push({ ...(await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: room.id } })), lockId: String(lockId) });
  }
  const staff = await actorContext(ctx.deps, h.staffToken);
  const owner = await actorContext(ctx.deps, h.ownerToken);
  return { ...h, rooms: paired, staff, owner };
}

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

/** Reserves, "writes" and confirms a card; answers what the reader would read from it. */
async function issue(staff: Staff, input: Parameters<typeof reserveCard>[1]) {
  const write = await reserveCard(staff, input);
  const confirmed = await confirmCard(staff, { issueId: write.issue.id, uid: input.uid, blocks: write.blocks });
  return { write, issue: confirmed, dump: writtenCard(write, String(input.uid).toUpperCase()) };
}

async function waitFor<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The hotel's locks hold its card keys (the delivery engine pushed them). */
async function keysOnLocks(staff: Staff) {
  return waitFor(
    'card keys on the locks',
    () => cardKeyStates(staff),
    (states) => states.length > 0 && states.every((s) => s.deliveryState === 'on_lock'),
  );
}

/** Card grants of a writing, settled (their lock did what was asked). */
async function grantsSettled(issueId: number) {
  return waitFor(
    `grants of card ${issueId}`,
    () => ctx.deps.prisma.cardGrant.findMany({ where: { issueId } }),
    (grants) => grants.every((g) => !['pending', 'removing'].includes(g.deliveryState)),
  );
}

const present = (lockId: string, dump: ReturnType<typeof writtenCard>) => client.presentCard(Number(lockId), dump);

describe('room cards at the desk and at the lock', () => {
  it('issues a guest card that opens its room (the record names the guest), not the next room, and stops at check-out', async () => {
    const h = await hotelWithLocks(2);
    const stay = await stayIn(h.staff, h.rooms[0]!.id, 'Ada Brandt');
    const uid = newUid();
    const { write, issue: card, dump } = await issue(h.staff, { uid, kind: 'room', stayId: stay.id });
    expect(card).toMatchObject({
      state: 'issued',
      kind: 'room',
      cardNumber: cardNumberOfUid(uid),
      holderName: 'Ada Brandt',
      generation: 1,
      duplicate: false,
      roomId: h.rooms[0]!.id,
    });
    expect(write.blocks).toHaveLength(3);
    // Blank cards open with the factory key; the trailer sets the hotel's key A.
    expect(write.openKeys.at(-1)).toBe('FFFFFFFFFFFF');
    expect(write.openKeys).toContain(dump.keyA);
    await keysOnLocks(h.staff);

    expect(await present(h.rooms[0]!.lockId, dump)).toMatchObject({ opened: true, outcome: 'opened' });
    expect(await present(h.rooms[1]!.lockId, dump)).toMatchObject({ opened: false, outcome: 'wrong_room' });
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    await pollLockRecords(ctx.deps, { hotelId: h.hotel.id });
    const records = (await listUnlockRecords(h.staff, { roomId: h.rooms[0]!.id })).items;
    expect(records).toEqual([expect.objectContaining({ style: 'card', success: true, operator: 'Ada Brandt', credential: `card:${card.id}` })]);
    // At the next room's lock it was refused, and the record says why.
    expect((await listUnlockRecords(h.staff, { roomId: h.rooms[1]!.id })).items).toEqual([
      expect.objectContaining({ style: 'card', success: false, reason: 'wrong_room' }),
    ]);

    // The desk reads it: the guest it belongs to.
    const found = await lookupCard(h.staff, { cardNumber: card.cardNumber });
    expect(found.guest).toMatchObject({ name: 'Ada Brandt', stayId: stay.id, roomId: h.rooms[0]!.id });

    await checkOut(h.staff, { stayId: stay.id });
    const [grant] = await grantsSettled(card.id);
    expect(grant).toMatchObject({ deliveryState: 'removed', revokeReason: 'check_out' });
    expect(await present(h.rooms[0]!.lockId, dump)).toMatchObject({ opened: false, outcome: 'denylisted' });
    expect((await listCards(h.staff, { stayId: stay.id, scope: 'history' })).items[0]).toMatchObject({ id: card.id, state: 'ended', endReason: 'check_out' });
    expect((await lookupCard(h.staff, { cardNumber: card.cardNumber })).guest).toBeNull();
  });

  it('a duplicate opens beside the first card; a new card, once used, voids the earlier ones', async () => {
    const h = await hotelWithLocks(1);
    const lockId = h.rooms[0]!.lockId;
    const stay = await stayIn(h.staff, h.rooms[0]!.id);
    const first = await issue(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id });
    const copy = await issue(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id, mode: 'duplicate' });
    expect(copy.issue).toMatchObject({ duplicate: true, generation: first.issue.generation });
    await keysOnLocks(h.staff);
    expect(await present(lockId, first.dump)).toMatchObject({ opened: true });
    expect(await present(lockId, copy.dump)).toMatchObject({ opened: true });

    const fresh = await issue(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id, mode: 'new' });
    expect(fresh.issue.generation).toBe(2);
    // The earlier cards ended with the new one (and are denylisted on the lock).
    expect((await listCards(h.staff, { stayId: stay.id, scope: 'history' })).items.map((c) => [c.id, c.endReason])).toEqual(
      expect.arrayContaining([
        [first.issue.id, 'replaced'],
        [copy.issue.id, 'replaced'],
      ]),
    );
    expect(await present(lockId, fresh.dump)).toMatchObject({ opened: true });
    expect(await present(lockId, first.dump)).toMatchObject({ opened: false });
    expect(await present(lockId, copy.dump)).toMatchObject({ opened: false });
  });

  it('a lost card is refused at its lock and is never written again; a returned card can be written for the next guest', async () => {
    const h = await hotelWithLocks(1);
    const lockId = h.rooms[0]!.lockId;
    const stay = await stayIn(h.staff, h.rooms[0]!.id);
    const lostUid = newUid();
    const lost = await issue(h.staff, { uid: lostUid, kind: 'room', stayId: stay.id, mode: 'duplicate' });
    const kept = await issue(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id, mode: 'duplicate' });
    await keysOnLocks(h.staff);
    expect(await present(lockId, lost.dump)).toMatchObject({ opened: true });

    await reportCardLost(h.staff, { issueId: lost.issue.id });
    await grantsSettled(lost.issue.id);
    expect(await present(lockId, lost.dump)).toMatchObject({ opened: false, outcome: 'denylisted' });
    expect(await present(lockId, kept.dump)).toMatchObject({ opened: true });
    await expect(reserveCard(h.staff, { uid: lostUid, kind: 'room', stayId: stay.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      options: { messageKey: 'cards.errors.cardLost' },
    });

    // Returned at the desk: ended, its sector to clear, and the same card serves again.
    const returned = await returnCard(h.staff, { cardNumber: kept.issue.cardNumber });
    expect(returned.issue).toMatchObject({ state: 'returned' });
    expect(returned.clear.map((b) => b.block)).toEqual([4, 5, 6]);
    const again = await issue(h.staff, { uid: kept.dump.uid, kind: 'room', stayId: stay.id, mode: 'duplicate' });
    expect(again.issue.state).toBe('issued');
    await grantsSettled(kept.issue.id);
    expect(await present(lockId, again.dump)).toMatchObject({ opened: true });
    expect(await present(lockId, kept.dump)).toMatchObject({ opened: false });
  });

  it('a card still issued is not written over; a write that does not read back the same issues nothing', async () => {
    const h = await hotelWithLocks(1);
    const stay = await stayIn(h.staff, h.rooms[0]!.id);
    const uid = newUid();
    const first = await issue(h.staff, { uid, kind: 'room', stayId: stay.id });
    await expect(reserveCard(h.staff, { uid, kind: 'room', stayId: stay.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      options: { messageKey: 'cards.errors.cardInUse' },
    });

    const write = await reserveCard(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id, mode: 'duplicate' });
    const corrupted = write.blocks.map((b, i) =>
      i === 1 ? { ...b, data: `${b.data.slice(0, 30)}00` === b.data ? `${b.data.slice(0, 30)}11` : `${b.data.slice(0, 30)}00` } : b,
    );
    await expect(confirmCard(h.staff, { issueId: write.issue.id, uid: write.issue.uid, blocks: corrupted })).rejects.toMatchObject({
      code: 'VALIDATION',
      options: { messageKey: 'cards.errors.readBackMismatch' },
    });
    const voided = (await listCards(h.staff, { stayId: stay.id, scope: 'all' })).items.find((c) => c.id === write.issue.id);
    expect(voided).toMatchObject({ state: 'voided', endReason: 'write_failed', grants: [] });
    expect((await listCards(h.staff, { stayId: stay.id })).items.map((c) => c.id)).toEqual([first.issue.id]);
  });

  it('a universal card opens exactly its rooms', async () => {
    const h = await hotelWithLocks(3);
    const master = await issue(h.owner, {
      uid: newUid(),
      kind: 'universal',
      roomIds: [h.rooms[0]!.id, h.rooms[2]!.id],
      validUntil: new Date(Date.now() + 7 * 86_400_000),
      note: 'Housekeeping 2F',
    });
    expect(master.issue.grants.map((g) => g.roomId).sort()).toEqual([h.rooms[0]!.id, h.rooms[2]!.id].sort());
    await keysOnLocks(h.owner);
    expect(await present(h.rooms[0]!.lockId, master.dump)).toMatchObject({ opened: true });
    expect(await present(h.rooms[1]!.lockId, master.dump)).toMatchObject({ opened: false, outcome: 'wrong_room' });
    expect(await present(h.rooms[2]!.lockId, master.dump)).toMatchObject({ opened: true });
  });

  it('a clerk given some rooms writes a management card of them and reads it back; refused one of another room or of all rooms, leaving nothing reserved', async () => {
    const h = await hotelWithLocks(2);
    const membership = await ctx.deps.prisma.membership.findFirstOrThrow({ where: { hotelId: h.hotel.id, accountId: h.staff.actor.accountId } });
    await ctx.deps.prisma.membership.update({ where: { id: membership.id }, data: { allRooms: false } });
    await ctx.deps.prisma.membershipRoom.create({ data: { hotelId: h.hotel.id, membershipId: membership.id, roomId: h.rooms[0]!.id } });
    const clerk = await actorContext(ctx.deps, h.staffToken);
    expect(clerk.actor.allRooms).toBe(false);
    const validUntil = new Date(Date.now() + 86_400_000);

    const card = await issue(clerk, { uid: newUid(), kind: 'management', roomIds: [h.rooms[0]!.id], validUntil, note: 'Floor 1' });
    expect(card.issue.state).toBe('issued');
    expect(card.issue.grants.map((g) => g.roomId)).toEqual([h.rooms[0]!.id]);
    await keysOnLocks(h.owner);
    expect(await present(h.rooms[0]!.lockId, card.dump)).toMatchObject({ opened: true });
    expect(await present(h.rooms[1]!.lockId, card.dump)).toMatchObject({ opened: false, outcome: 'wrong_room' });

    const reservedBefore = await ctx.deps.prisma.cardIssue.count({ where: { hotelId: h.hotel.id, state: 'reserved' } });
    await expect(reserveCard(clerk, { uid: newUid(), kind: 'management', roomIds: [h.rooms[1]!.id], validUntil })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(reserveCard(clerk, { uid: newUid(), kind: 'management', allRooms: true, validUntil })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await ctx.deps.prisma.cardIssue.count({ where: { hotelId: h.hotel.id, state: 'reserved' } })).toBe(reservedBefore);
    // A reservation the clerk gives up is theirs to void.
    const pending = await reserveCard(clerk, { uid: newUid(), kind: 'management', roomIds: [h.rooms[0]!.id], validUntil });
    await expect(voidReservation(clerk, { issueId: pending.issue.id })).resolves.toMatchObject({ state: 'voided' });
  });

  it('says before a card is placed whether the rooms chosen fit on one card, as the writing then finds', async () => {
    const h = await hotelWithLocks(0);
    const { rooms } = await createRooms(
      ctx.deps,
      h.hotel.id,
      Array.from({ length: 10 }, (_, i) => `F${randomUUID().slice(0, 5)}-${i}`),
    );
    const ids = rooms.map((r) => r.id);
    const until = new Date(Date.now() + 86_400_000);
    // Ten rooms without lock numbers yet would get ten consecutive ones: one card.
    expect(await cardRoomFit(h.owner, { roomIds: ids })).toEqual({ fits: true, count: 10, span: 10, listedMax: 7, window: 96 });
    const close = await reserveCard(h.owner, { uid: newUid(), kind: 'universal', roomIds: ids, validUntil: until });
    expect(close.issue.state).toBe('reserved');
    // One of them far from the others: eight rooms across more than 96 numbers do not fit, seven anywhere do.
    await ctx.deps.prisma.room.update({ where: { id: ids[9]! }, data: { lockNumber: 400 } });
    expect(await cardRoomFit(h.owner, { roomIds: ids.slice(2) })).toMatchObject({ fits: false, count: 8, span: 400 - 3 + 1 });
    await expect(reserveCard(h.owner, { uid: newUid(), kind: 'universal', roomIds: ids.slice(2), validUntil: until })).rejects.toMatchObject({
      options: { messageKey: 'cards.errors.tooManyRooms' },
    });
    expect(await cardRoomFit(h.owner, { roomIds: ids.slice(3) })).toMatchObject({ fits: true, count: 7 });
    // Another hotel's rooms are not found.
    const other = await hotelWithLocks(0);
    await expect(cardRoomFit(other.owner, { roomIds: [ids[0]!] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const res = await api.query('card.roomFit', { roomIds: [ids[0]!] }, { token: other.ownerToken });
    expect(res.status).toBe(404);
  });

  it('after a key rotation new cards are written under the new keys and the cards written before keep opening', async () => {
    const h = await hotelWithLocks(1);
    const lockId = h.rooms[0]!.lockId;
    const stay = await stayIn(h.staff, h.rooms[0]!.id);
    const before = await issue(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id });
    await keysOnLocks(h.staff);
    const rotated = await createCardKeySet(h.owner, { name: 'Spring' });
    const sets = await listCardKeySets(h.owner);
    expect(sets.map((s) => [s.name, s.isActive])).toEqual([
      ['Spring', true],
      ['Key set 1', false],
    ]);
    expect(sets[1]!.keepUntil).toBe(before.issue.validUntil);
    // The retired set's fingerprint differs; no key material is in the answer.
    expect(JSON.stringify(sets)).not.toMatch(/sectorKey|desKey|macKey|keysEncrypted/);
    expect(rotated.fingerprint).not.toBe(sets[1]!.fingerprint);
    await keysOnLocks(h.staff);
    const after = await issue(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id, mode: 'duplicate' });
    expect(after.dump.keyA).not.toBe(before.dump.keyA);
    expect(await present(lockId, after.dump)).toMatchObject({ opened: true });
    expect(await present(lockId, before.dump)).toMatchObject({ opened: true });

    // The old set cannot go while a card written under it works; once that card is back, it can.
    const old = sets[1]!;
    await expect(deleteCardKeySet(h.owner, { id: rotated.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      options: { messageKey: 'cards.errors.keySetActive' },
    });
    await expect(deleteCardKeySet(h.owner, { id: old.id })).rejects.toMatchObject({ code: 'CONFLICT', options: { messageKey: 'cards.errors.keySetInUse' } });
    await returnCard(h.staff, { cardNumber: before.issue.cardNumber });
    await deleteCardKeySet(h.owner, { id: old.id });
    expect((await listCardKeySets(h.owner)).map((s) => s.name)).toEqual(['Spring']);
    expect((await listCards(h.staff, { stayId: stay.id, scope: 'history' })).items.find((c) => c.id === before.issue.id)).toMatchObject({ state: 'returned' });
    // The locks drop it: the card written under it no longer opens.
    await keysOnLocks(h.staff);
    expect(await present(lockId, after.dump)).toMatchObject({ opened: true });
  });

  it("never lets another hotel read, end or rewrite a hotel's cards, and a hotel's card never opens another hotel's lock", async () => {
    const a = await hotelWithLocks(1);
    const b = await hotelWithLocks(1);
    const stayA = await stayIn(a.staff, a.rooms[0]!.id);
    const stayB = await stayIn(b.staff, b.rooms[0]!.id);
    const cardA = await issue(a.staff, { uid: newUid(), kind: 'room', stayId: stayA.id });
    await issue(b.staff, { uid: newUid(), kind: 'room', stayId: stayB.id });
    await keysOnLocks(a.staff);
    await keysOnLocks(b.staff);
    // Hotel A's card at hotel B's lock: another hotel's keys cannot even read it.
    expect(await present(b.rooms[0]!.lockId, cardA.dump)).toMatchObject({ opened: false });

    expect(await lookupCard(b.staff, { cardNumber: cardA.issue.cardNumber })).toEqual({ cardNumber: cardA.issue.cardNumber, issue: null, guest: null });
    await expect(reportCardLost(b.staff, { issueId: cardA.issue.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(confirmCard(b.staff, { issueId: cardA.issue.id, uid: cardA.dump.uid, blocks: cardA.write.blocks })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(returnCard(b.staff, { cardNumber: cardA.issue.cardNumber })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(reserveCard(b.staff, { uid: newUid(), kind: 'room', stayId: stayA.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await listCards(b.staff, { scope: 'all' })).items.map((c) => c.id)).not.toContain(cardA.issue.id);
    for (const call of [
      await api.query('card.get', { issueId: cardA.issue.id }, { token: b.staffToken }),
      await api.mutation('card.reportLost', { issueId: cardA.issue.id }, { token: b.staffToken }),
      await api.mutation('card.revoke', { issueId: cardA.issue.id }, { token: b.staffToken }),
      await api.mutation('card.voidReservation', { issueId: cardA.issue.id }, { token: b.staffToken }),
    ]) {
      expect(call.status).toBe(404);
    }
    // A's card is untouched.
    expect(await present(a.rooms[0]!.lockId, cardA.dump)).toMatchObject({ opened: true });
  });

  it('sends a card over the air: its number reaches the lock through the gateway, opens the room, and comes off at check-out', async () => {
    const h = await hotelWithLocks(1);
    const lockId = h.rooms[0]!.lockId;
    const stay = await stayIn(h.staff, h.rooms[0]!.id, 'Omar Haddad');
    const cardNumber = String(3_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
    await client.control('PATCH', `/locks/${lockId}`, { latencyMs: 300 });
    const sent = await sendCard(h.staff, { cardNumber, stayId: stay.id });
    expect(sent).toMatchObject({
      medium: 'number',
      state: 'issued',
      holderName: 'Omar Haddad',
      grants: [expect.objectContaining({ deliveryState: 'pending' })],
    });
    const [grant] = await grantsSettled(sent.id);
    expect(grant).toMatchObject({ deliveryState: 'on_lock', lastError: null });
    await client.control('PATCH', `/locks/${lockId}`, { latencyMs: null });
    const use = (n: string) => client.control<{ opened: boolean }>('POST', `/locks/${lockId}/use`, { cardNumber: n });
    expect(await use(cardNumber)).toMatchObject({ opened: true });
    expect(await use(String(Number(cardNumber) + 1))).toMatchObject({ opened: false });
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    await pollLockRecords(ctx.deps, { hotelId: h.hotel.id });
    const records = (await listUnlockRecords(h.staff, { roomId: h.rooms[0]!.id })).items;
    expect(records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ style: 'card', success: true, operator: 'Omar Haddad', credential: `card:${sent.id}` }),
        expect.objectContaining({ style: 'card', success: false, credential: null }),
      ]),
    );

    await checkOut(h.staff, { stayId: stay.id });
    expect((await grantsSettled(sent.id))[0]).toMatchObject({ deliveryState: 'removed', revokeReason: 'check_out' });
    expect(await use(cardNumber)).toMatchObject({ opened: false });
  });

  it('a room paired with a lock after the hotel has card keys gets them, and its cards open it', async () => {
    const h = await hotelWithLocks(1);
    const stay = await stayIn(h.staff, h.rooms[0]!.id);
    await issue(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id });
    await keysOnLocks(h.staff);
    // A new room, paired later through the lock settings.
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`L${randomUUID().slice(0, 6)}`]);
    const { lockId } = await client.lockWithGateway();
    await setLockData(h.owner, { roomId: rooms[0]!.id, lockId: String(lockId), bluetoothName: null, macId: null });
    const states = await keysOnLocks(h.staff);
    expect(states.map((s) => s.roomId)).toContain(rooms[0]!.id);
    const later = await stayIn(h.staff, rooms[0]!.id);
    const card = await issue(h.staff, { uid: newUid(), kind: 'room', stayId: later.id });
    expect(await present(String(lockId), card.dump)).toMatchObject({ opened: true });
  });

  it('a renewal runs a card sent over the air to the new end on its lock, and says a written card must be written again', async () => {
    const h = await hotelWithLocks(1);
    const lockId = h.rooms[0]!.lockId;
    const stay = await stayIn(h.staff, h.rooms[0]!.id);
    const written = await issue(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id });
    const sent = await sendCard(h.staff, { cardNumber: String(3_000_000_000 + Math.floor(Math.random() * 1_000_000_000)), stayId: stay.id });
    await grantsSettled(sent.id);
    const newEnd = new Date(new Date(stay.expectedCheckOutAt).getTime() + 2 * 86_400_000);
    await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: newEnd });
    const [grant] = await grantsSettled(sent.id);
    expect(grant).toMatchObject({ deliveryState: 'on_lock', validUntil: newEnd });
    const onLock = (await client.control<{ lock: { cards: { cardNumber: string; endDate: number }[] } }>('GET', `/locks/${lockId}`)).lock.cards;
    expect(onLock.find((c) => c.cardNumber === sent.cardNumber)?.endDate).toBe(newEnd.getTime());
    const cards = (await listCards(h.staff, { stayId: stay.id })).items;
    expect(cards.find((c) => c.id === sent.id)).toMatchObject({ validUntil: newEnd.toISOString(), needsRewrite: false });
    expect(cards.find((c) => c.id === written.issue.id)).toMatchObject({ needsRewrite: true });
  });

  it('writes a renewed card again in place: the card keeps opening until the new writing is confirmed, a failed rewrite changes nothing', async () => {
    const h = await hotelWithLocks(1);
    const lockId = h.rooms[0]!.lockId;
    const stay = await stayIn(h.staff, h.rooms[0]!.id);
    const uid = newUid();
    const first = await issue(h.staff, { uid, kind: 'room', stayId: stay.id });
    const other = await issue(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id, mode: 'duplicate' });
    await keysOnLocks(h.staff);
    const newEnd = new Date(new Date(stay.expectedCheckOutAt).getTime() + 2 * 86_400_000);
    await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: newEnd });

    // Without naming the writing it replaces, the card is still in use; naming another one is refused.
    await expect(reserveCard(h.staff, { uid, kind: 'room', stayId: stay.id, mode: 'duplicate' })).rejects.toMatchObject({
      options: { messageKey: 'cards.errors.cardInUse' },
    });
    await expect(reserveCard(h.staff, { uid, kind: 'room', stayId: stay.id, replaces: other.issue.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      options: { messageKey: 'cards.errors.notIssued' },
    });

    // A rewrite given up (the write failed at the desk): the card's writing is untouched and opens.
    const abandoned = await reserveCard(h.staff, { uid, kind: 'room', stayId: stay.id, replaces: first.issue.id });
    expect((await listCards(h.staff, { stayId: stay.id })).items.find((c) => c.id === first.issue.id)).toMatchObject({ state: 'issued', needsRewrite: true });
    await voidReservation(h.staff, { issueId: abandoned.issue.id });
    expect((await listCards(h.staff, { stayId: stay.id })).items.map((c) => c.id).sort()).toEqual([first.issue.id, other.issue.id].sort());
    expect(await present(lockId, first.dump)).toMatchObject({ opened: true });

    // Written again and confirmed: the new writing runs to the new end, the old one ends (denylisted),
    // and the stay's other card, of the same generation, keeps opening.
    const again = await issue(h.staff, { uid, kind: 'room', stayId: stay.id, replaces: first.issue.id });
    expect(again.issue).toMatchObject({
      state: 'issued',
      validUntil: newEnd.toISOString(),
      needsRewrite: false,
      generation: first.issue.generation,
      duplicate: true,
    });
    await grantsSettled(first.issue.id);
    const history = (await listCards(h.staff, { stayId: stay.id, scope: 'history' })).items.find((c) => c.id === first.issue.id);
    expect(history).toMatchObject({ state: 'ended', endReason: 'rewritten' });
    expect(await present(lockId, first.dump)).toMatchObject({ opened: false, outcome: 'denylisted' });
    expect(await present(lockId, again.dump)).toMatchObject({ opened: true });
    expect(await present(lockId, other.dump)).toMatchObject({ opened: true });
  });

  it("takes expired cards' entries off the lock's denylist, and keeps those of cards still valid", async () => {
    const h = await hotelWithLocks(1);
    const lockId = h.rooms[0]!.lockId;
    const stay = await stayIn(h.staff, h.rooms[0]!.id);
    const expired = await issue(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id, mode: 'duplicate' });
    const valid = await issue(h.staff, { uid: newUid(), kind: 'room', stayId: stay.id, mode: 'duplicate' });
    await keysOnLocks(h.staff);
    await reportCardLost(h.staff, { issueId: expired.issue.id });
    await reportCardLost(h.staff, { issueId: valid.issue.id });
    await grantsSettled(expired.issue.id);
    await grantsSettled(valid.issue.id);
    const denylisted = async () => (await simAdapter(sim).cardSettings(lockId)).denylist.cardIds;
    expect(await denylisted()).toEqual(expect.arrayContaining([expired.issue.id, valid.issue.id]));

    // The first card's written validity ended more than the margin ago; the second's has not.
    const longAgo = new Date(Date.now() - DENYLIST_PRUNE_MARGIN_MS - 60_000);
    const period = { validFrom: new Date(longAgo.getTime() - 86_400_000), validUntil: longAgo };
    await ctx.deps.prisma.cardIssue.update({ where: { id: expired.issue.id }, data: period });
    await ctx.deps.prisma.cardGrant.updateMany({ where: { issueId: expired.issue.id }, data: period });
    const first = await pruneCardDenylists(ctx.deps);
    expect(first.pruned).toBeGreaterThanOrEqual(1);
    expect(await denylisted()).not.toContain(expired.issue.id);
    expect(await denylisted()).toContain(valid.issue.id);
    expect((await ctx.deps.prisma.cardGrant.findFirstOrThrow({ where: { issueId: expired.issue.id } })).denylistPrunedAt).not.toBeNull();
    expect((await ctx.deps.prisma.cardGrant.findFirstOrThrow({ where: { issueId: valid.issue.id } })).denylistPrunedAt).toBeNull();
    // The valid lost card is still refused; nothing of this hotel is left to prune.
    expect(await present(lockId, valid.dump)).toMatchObject({ opened: false, outcome: 'denylisted' });
    await pruneCardDenylists(ctx.deps);
    expect(
      await ctx.deps.prisma.cardGrant.count({
        where: {
          hotelId: h.hotel.id,
          medium: 'data',
          deliveryState: 'removed',
          denylistPrunedAt: null,
          validUntil: { lt: new Date(Date.now() - DENYLIST_PRUNE_MARGIN_MS) },
        },
      }),
    ).toBe(0);
  });

  it("names a hotel's first key set (made with its first card) in the language of whoever reads it, not of who made it (issue 17 §5)", async () => {
    const h = await hotelWithLocks(1);
    const stay = await stayIn(h.staff, h.rooms[0]!.id);
    const inChinese = await actorContext(ctx.deps, h.staffToken, testMeta({ lang: 'zh-CN' }));
    await reserveCard(inChinese, { uid: newUid(), kind: 'room', stayId: stay.id });
    expect((await listCardKeySets(h.owner)).map((s) => s.name)).toEqual(['Key set 1']);
    expect((await listCardKeySets({ ...h.owner, meta: { ...h.owner.meta, lang: 'zh-CN' } })).map((s) => s.name)).toEqual(['密钥组 1']);
  });

  it('refuses bad input with translated messages', async () => {
    const h = await hotelWithLocks(1);
    const bad = await api.raw.mutation('card.reserve', { uid: 'XYZ', kind: 'room' }, { token: h.staffToken });
    expect(bad.status).toBe(400);
    expect(bad.error?.data.app?.fields).toMatchObject({ uid: expect.any(String), stayId: expect.any(String) });
    const noNumber = await api.raw.query('card.lookup', { cardNumber: '' }, { token: h.staffToken, lang: 'zh-CN' });
    expect(noNumber.status).toBe(400);
    expect(noNumber.error?.data.app?.fields?.cardNumber).toBe('卡号不能为空');
  });
});
