import { randomBytes, randomUUID } from 'node:crypto';
import { FACE_RULES } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, AuthedContext } from '../../context';
import { actorContext } from '../../test/harness';
import { pairSimLock } from '../../test/lock-factories';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { reserveCard } from '../cards/card-issue';
import { sendCard } from '../cards/card-send';
import { confirmCard } from '../cards/card-write';
import { authorizeFace } from '../credentials/face-authorization.service';
import { createFace } from '../credentials/face.service';
import { createPassword } from '../credentials/password.service';
import { stayKeys } from '../stay-keys/stay-keys';
import { storeUpload } from '../uploads/upload.service';
import { checkIn } from './check-in';
import { renewStay } from './renewal';
import { changeRoom } from './room-change';
import { startSimDesk, stopSimDesk, type SimDesk } from '../../test/sim-desk';

/**
 * The guest's keys follow the guest (issue 17 §2): a room change takes the old stay's codes,
 * faces and cards off the old room's lock and issues them on the new room's, in one action, through
 * the real TTLock adapter against apps/lock-sim, with the real workers, Redis and database; a
 * renewal says which written cards need rewriting. What opens which door is asked of the simulated
 * locks themselves.
 */

let { sim, client, ctx, workers, api } = {} as SimDesk;
beforeAll(async () => void ({ sim, client, ctx, workers, api } = await startSimDesk()));
afterAll(() => stopSimDesk({ sim, ctx, workers }));

type Staff = AuthedContext & { actor: Actor };

/** A hotel with rooms; the first `paired` are paired with new simulated locks (the options: what each lock has). */
async function hotelWithRooms(count: number, locks: Record<string, unknown>[] = Array.from({ length: count }, () => ({}))) {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(
    ctx.deps,
    h.hotel.id,
    Array.from({ length: count }, (_, i) => `K${randomUUID().slice(0, 6)}-${i}`),
  );
  const out = [];
  for (const [i, room] of rooms.entries()) {
    let lockId: string | null = null;
    if (i < locks.length) {
      const created = await client.lockWithGateway(locks[i]);
      await pairSimLock(ctx.deps, h.hotel.id, room.id, created.lockId);
      lockId = String(created.lockId);
    }
    out.push({ id: room.id, name: room.name, lockId });
  }
  return { ...h, rooms: out, staff: await actorContext(ctx.deps, h.staffToken), owner: await actorContext(ctx.deps, h.ownerToken) };
}

async function stayIn(staff: Staff, roomId: number, options: { from?: Date; until?: Date } = {}) {
  return checkIn(staff, {
    roomId,
    checkInAt: options.from ?? new Date(Date.now() - 60_000),
    expectedCheckOutAt: options.until ?? new Date(Date.now() + 26 * 3_600_000),
    guests: [{ name: 'Lin Wei', mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
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

const settled = (state: string) => !['pending', 'removing'].includes(state);
const password = (id: number) =>
  waitFor(
    `password ${id}`,
    () => ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } }),
    (p) => settled(p.deliveryState),
  );
const face = (id: number) =>
  waitFor(
    `face authorisation ${id}`,
    () => ctx.deps.prisma.faceAuthorization.findUniqueOrThrow({ where: { id } }),
    (a) => settled(a.deliveryState),
  );
const grantsOf = (issueId: number) =>
  waitFor(
    `grants of card ${issueId}`,
    () => ctx.deps.prisma.cardGrant.findMany({ where: { issueId } }),
    (gs) => gs.length > 0 && gs.every((g) => settled(g.deliveryState)),
  );

const use = (lockId: string, body: Record<string, unknown>) => client.control<{ opened: boolean; outcome: string }>('POST', `/locks/${lockId}/use`, body);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
async function faceOf(staff: Staff, guestId: number) {
  const { url } = await storeUpload(ctx.deps, staff.actor, 'face', Buffer.concat([PNG_SIGNATURE, randomBytes(FACE_RULES.imageMinBytes)]));
  return createFace(staff, { faceId: `F-${randomUUID().slice(0, 8)}`, note: 'Lin Wei', imageUrl: url, guestId });
}

describe('a room change moves the guest’s keys to the new room', () => {
  it('issues a custom code with the same digits on the new lock, where it opens, and takes it off the old one, which refuses it', async () => {
    const h = await hotelWithRooms(2);
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const stay = await stayIn(h.staff, a.id);
    const old = await createPassword(h.staff, { roomId: a.id, stayId: stay.id, kind: 'custom', code: '583916' });
    expect(await password(old.id)).toMatchObject({ deliveryState: 'on_lock' });
    expect(await use(a.lockId!, { passcode: '583916' })).toMatchObject({ opened: true });

    const moved = await changeRoom(h.staff, { stayId: stay.id, targetRoomId: b.id });
    expect(moved.credentialMoves).toEqual([
      expect.objectContaining({
        kind: 'password',
        fromId: old.id,
        outcome: 'same_code',
        blocked: null,
        passwordKind: 'custom',
        code: '583916',
        holderName: 'Lin Wei',
      }),
    ]);
    const next = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: moved.credentialMoves[0]!.toId! } });
    expect(next).toMatchObject({
      roomId: b.id,
      stayId: moved.id,
      kind: 'custom',
      code: '583916',
      replacesId: null,
      validUntil: old.validUntil ? new Date(old.validUntil) : null,
    });
    // The new stay's guest holds it (a credential follows its guest).
    expect(next.guestId).toBe(moved.guests[0]!.id);

    expect(await password(next.id)).toMatchObject({ deliveryState: 'on_lock', lastError: null });
    expect(await password(old.id)).toMatchObject({ deliveryState: 'removed', revokeReason: 'room_change' });
    expect(await use(b.lockId!, { passcode: '583916' })).toMatchObject({ opened: true });
    expect(await use(a.lockId!, { passcode: '583916' })).toMatchObject({ opened: false, outcome: 'unknown' });

    // What the guest holds now, and what the old room's lock was told to refuse.
    const keys = await stayKeys(h.staff, { stayId: moved.id });
    expect(keys.passwords.map((p) => [p.id, p.code, p.deliveryState])).toEqual([[next.id, '583916', 'on_lock']]);
    expect(keys.movedFrom).toMatchObject({
      stayId: stay.id,
      roomName: a.name,
      passwords: [expect.objectContaining({ id: old.id, deliveryState: 'removed', revokeReason: 'room_change' })],
    });
  });

  it('replaces a generated code with a new one on the new lock and says so; the old code stops at the old door', async () => {
    const h = await hotelWithRooms(2);
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const stay = await stayIn(h.staff, a.id);
    const old = await password((await createPassword(h.staff, { roomId: a.id, stayId: stay.id, kind: 'air' })).id);
    expect(old).toMatchObject({ deliveryState: 'on_lock' });
    expect(old.code).toMatch(/^\d{6,9}$/);

    const moved = await changeRoom(h.staff, { stayId: stay.id, targetRoomId: b.id });
    expect(moved.credentialMoves).toEqual([
      expect.objectContaining({ kind: 'password', fromId: old.id, outcome: 'new_code', passwordKind: 'air', code: null }),
    ]);
    const next = await password(moved.credentialMoves[0]!.toId!);
    expect(next).toMatchObject({ roomId: b.id, kind: 'air', deliveryState: 'on_lock', replacesId: old.id });
    expect(next.code).toMatch(/^\d{6,9}$/);
    // Generated codes are whole hours, up to the stay's end.
    expect(next.validUntil!.getTime() % 3_600_000).toBe(0);
    expect(next.validUntil!.getTime()).toBeGreaterThanOrEqual(new Date(moved.expectedCheckOutAt).getTime());
    expect(await use(b.lockId!, { passcode: next.code })).toMatchObject({ opened: true });
    expect(await password(old.id)).toMatchObject({ deliveryState: 'removed', revokeReason: 'room_change' });
    expect(await use(a.lockId!, { passcode: old.code })).toMatchObject({ opened: false });
  });

  it('moves a face: authorised on the new lock, where it opens, taken off the old one', async () => {
    const h = await hotelWithRooms(2);
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const stay = await stayIn(h.staff, a.id);
    const f = await faceOf(h.staff, stay.guests[0]!.id);
    const before = await face((await authorizeFace(h.staff, { id: f.id, roomId: a.id, stayId: stay.id })).id);
    expect(before).toMatchObject({ deliveryState: 'on_lock' });

    const moved = await changeRoom(h.staff, { stayId: stay.id, targetRoomId: b.id });
    expect(moved.credentialMoves).toEqual([expect.objectContaining({ kind: 'face', fromId: before.id, outcome: 'moved', faceId: f.faceId, blocked: null })]);
    const after = await face(moved.credentialMoves[0]!.toId!);
    expect(after).toMatchObject({ roomId: b.id, stayId: moved.id, faceId: f.id, deliveryState: 'on_lock' });
    expect(await use(b.lockId!, { faceId: Number(after.providerRef) })).toMatchObject({ opened: true });
    expect(await face(before.id)).toMatchObject({ deliveryState: 'removed', revokeReason: 'room_change' });
    expect(await use(a.lockId!, { faceId: Number(before.providerRef) })).toMatchObject({ opened: false });
  });

  it('sends a card sent over the air to the new lock (a new writing for the new stay), and the old lock forgets it', async () => {
    const h = await hotelWithRooms(2);
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const stay = await stayIn(h.staff, a.id);
    const sent = await sendCard(h.staff, { cardNumber: '3735928559', kind: 'room', stayId: stay.id });
    expect((await grantsOf(sent.id))[0]).toMatchObject({ deliveryState: 'on_lock' });
    expect(await use(a.lockId!, { cardNumber: '3735928559' })).toMatchObject({ opened: true });

    const moved = await changeRoom(h.staff, { stayId: stay.id, targetRoomId: b.id });
    expect(moved.credentialMoves).toEqual([expect.objectContaining({ kind: 'card', fromId: sent.id, outcome: 'moved', cardNumber: '3735928559' })]);
    const issueId = moved.credentialMoves[0]!.toId!;
    expect(await ctx.deps.prisma.cardIssue.findUniqueOrThrow({ where: { id: issueId } })).toMatchObject({
      state: 'issued',
      medium: 'number',
      roomId: b.id,
      stayId: moved.id,
    });
    expect(await grantsOf(issueId)).toEqual([expect.objectContaining({ roomId: b.id, deliveryState: 'on_lock' })]);
    expect(await ctx.deps.prisma.cardIssue.findUniqueOrThrow({ where: { id: sent.id } })).toMatchObject({ state: 'ended', endReason: 'room_change' });
    await grantsOf(sent.id);
    expect(await use(b.lockId!, { cardNumber: '3735928559' })).toMatchObject({ opened: true });
    expect(await use(a.lockId!, { cardNumber: '3735928559' })).toMatchObject({ opened: false });
  });

  it('ends the cards written for the old room (denylisted on its lock) and says how many to write for the new one', async () => {
    const h = await hotelWithRooms(2);
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const stay = await stayIn(h.staff, a.id);
    const uid = randomBytes(4).toString('hex').toUpperCase();
    const write = await reserveCard(h.staff, { uid, kind: 'room', stayId: stay.id });
    const card = await confirmCard(h.staff, { issueId: write.issue.id, uid, blocks: write.blocks });

    const moved = await changeRoom(h.staff, { stayId: stay.id, targetRoomId: b.id });
    expect(moved.credentialMoves).toEqual([
      expect.objectContaining({ kind: 'card', fromId: card.id, toId: null, outcome: 'ended', cardNumber: card.cardNumber }),
    ]);
    expect(await ctx.deps.prisma.cardIssue.findUniqueOrThrow({ where: { id: card.id } })).toMatchObject({ state: 'ended', endReason: 'room_change' });
    expect(await grantsOf(card.id)).toEqual([expect.objectContaining({ roomId: a.id, deliveryState: 'removed', revokeReason: 'room_change' })]);
    const lock = await client.control<{ lock: { cardDenylist?: { cardIds?: number[] } } }>('GET', `/locks/${a.lockId}`);
    expect(lock.lock.cardDenylist?.cardIds).toContain(card.id);
    // Nothing was issued for the new room in its place: its cards are written at the desk.
    expect(await ctx.deps.prisma.cardIssue.count({ where: { stayId: moved.id } })).toBe(0);
  });

  it('never issues a custom code the new lock already holds: says so (ours), or shows the lock’s refusal (one typed at its keypad)', async () => {
    const h = await hotelWithRooms(3);
    const [a, b, c] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0], (typeof h.rooms)[0]];
    // Room B's lock holds 583916 for someone else already: a code of ours.
    const other = await createPassword(h.staff, { roomId: b.id, kind: 'custom', code: '583916', holderName: 'Night porter' });
    await password(other.id);
    const stay = await stayIn(h.staff, a.id);
    const mine = await createPassword(h.staff, { roomId: a.id, stayId: stay.id, kind: 'custom', code: '583916' });
    await password(mine.id);
    const moved = await changeRoom(h.staff, { stayId: stay.id, targetRoomId: b.id });
    expect(moved.credentialMoves).toEqual([expect.objectContaining({ kind: 'password', fromId: mine.id, toId: null, outcome: 'code_taken', code: '583916' })]);
    // Nothing issued in its place; the porter's code is untouched; the old room's lock refuses it.
    expect(await ctx.deps.prisma.lockPassword.count({ where: { stayId: moved.id } })).toBe(0);
    expect(await password(other.id)).toMatchObject({ deliveryState: 'on_lock' });
    expect(await password(mine.id)).toMatchObject({ deliveryState: 'removed', revokeReason: 'room_change' });

    // Room C's lock got 640271 at its keypad, behind the console's back: the lock refuses the moved code, and the console shows why.
    await client.control('POST', `/locks/${c.lockId}/drift`, { action: 'plant', kind: 'passcode', code: '640271', name: 'typed at the door' });
    const second = await createPassword(h.staff, { roomId: b.id, stayId: moved.id, kind: 'custom', code: '640271' });
    await password(second.id);
    const again = await changeRoom(h.staff, { stayId: moved.id, targetRoomId: c.id });
    expect(again.credentialMoves).toEqual([expect.objectContaining({ fromId: second.id, outcome: 'same_code', code: '640271' })]);
    expect(await password(again.credentialMoves[0]!.toId!)).toMatchObject({ deliveryState: 'failed', lastError: 'duplicate_code', code: '640271' });
    // Never another code in its place.
    expect(await ctx.deps.prisma.lockPassword.count({ where: { stayId: again.id } })).toBe(1);
  });

  it('says a credential cannot be delivered to a room without a paired lock, or to a lock without what it needs, and records it failed', async () => {
    // Room B: no lock at all. Room C: a lock without a face module.
    const h = await hotelWithRooms(3, [{}, { faceModule: false }]);
    const [a, c, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0], (typeof h.rooms)[0]];
    expect(b.lockId).toBeNull();
    const stay = await stayIn(h.staff, a.id);
    const code = await createPassword(h.staff, { roomId: a.id, stayId: stay.id, kind: 'custom', code: '715209' });
    const f = await faceOf(h.staff, stay.guests[0]!.id);
    const authorization = await authorizeFace(h.staff, { id: f.id, roomId: a.id, stayId: stay.id });
    await password(code.id);
    await face(authorization.id);

    const toC = await changeRoom(h.staff, { stayId: stay.id, targetRoomId: c.id });
    expect(toC.credentialMoves.map((m) => [m.kind, m.outcome, m.blocked])).toEqual([
      ['password', 'same_code', null],
      ['face', 'moved', 'not_supported'],
    ]);
    expect(await ctx.deps.prisma.faceAuthorization.findUniqueOrThrow({ where: { id: toC.credentialMoves[1]!.toId! } })).toMatchObject({
      deliveryState: 'failed',
      lastError: 'not_supported',
      attempts: 0,
    });

    const toB = await changeRoom(h.staff, { stayId: toC.id, targetRoomId: b.id });
    expect(toB.credentialMoves.map((m) => [m.kind, m.outcome, m.blocked])).toEqual([
      ['password', 'same_code', 'no_lock'],
      ['face', 'moved', 'no_lock'],
    ]);
    expect(await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: toB.credentialMoves[0]!.toId! } })).toMatchObject({
      roomId: b.id,
      code: '715209',
      deliveryState: 'failed',
      lastError: 'no_lock',
    });
    // The view of what the guest holds says it too.
    const keys = await stayKeys(h.staff, { stayId: toB.id });
    expect(keys.lock).toBeNull();
    expect(keys.passwords.map((p) => [p.deliveryState, p.lastError])).toEqual([['failed', 'no_lock']]);
  });

  it('moves a reservation’s code with the reservation’s own validity', async () => {
    const h = await hotelWithRooms(2);
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const from = new Date(Math.ceil((Date.now() + 48 * 3_600_000) / 60_000) * 60_000);
    const until = new Date(from.getTime() + 24 * 3_600_000);
    const reservation = await stayIn(h.staff, a.id, { from, until });
    expect(reservation.state).toBe('reserved');
    const code = await createPassword(h.staff, { roomId: a.id, stayId: reservation.id, kind: 'custom', code: '902614' });
    expect(code.validFrom).toBe(from.toISOString());
    await password(code.id);

    const moved = await changeRoom(h.staff, { stayId: reservation.id, targetRoomId: b.id });
    expect(moved).toMatchObject({ state: 'reserved', checkInAt: from.toISOString() });
    const next = await password(moved.credentialMoves[0]!.toId!);
    expect(next).toMatchObject({ roomId: b.id, code: '902614', validFrom: from, validUntil: until, deliveryState: 'on_lock' });
    // Not yet valid at the new door; gone from the old one.
    expect(await use(b.lockId!, { passcode: '902614' })).toMatchObject({ opened: false, outcome: 'not_yet_valid' });
    expect(await password(code.id)).toMatchObject({ deliveryState: 'removed', revokeReason: 'room_change' });
  });

  it('finds no stay or room of another hotel, and moves nothing then', async () => {
    const h = await hotelWithRooms(2);
    const other = await hotelWithRooms(1);
    const stay = await stayIn(h.staff, h.rooms[0]!.id);
    const code = await createPassword(h.staff, { roomId: h.rooms[0]!.id, stayId: stay.id, kind: 'custom', code: '306185' });
    await password(code.id);
    await expect(changeRoom(h.staff, { stayId: stay.id, targetRoomId: other.rooms[0]!.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(changeRoom(other.staff, { stayId: stay.id, targetRoomId: other.rooms[0]!.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(stayKeys(other.staff, { stayId: stay.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await api.raw.query('stay.keys', { stayId: stay.id }, { token: other.staffToken })).status).toBe(404);
    expect((await api.raw.mutation('stay.changeRoom', { stayId: stay.id, targetRoomId: other.rooms[0]!.id }, { token: h.staffToken })).status).toBe(404);
    // Untouched: still on the first room's lock, and nothing on the other hotel's.
    expect(await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: code.id } })).toMatchObject({ deliveryState: 'on_lock', revokeReason: null });
    expect(await ctx.deps.prisma.lockPassword.count({ where: { hotelId: other.hotel.id } })).toBe(0);
  });

  it('two room changes of one stay at once: one moves the keys, once; the other is refused', async () => {
    const h = await hotelWithRooms(3);
    const [a, b, c] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0], (typeof h.rooms)[0]];
    const stay = await stayIn(h.staff, a.id);
    const code = await createPassword(h.staff, { roomId: a.id, stayId: stay.id, kind: 'custom', code: '418053' });
    await password(code.id);
    const results = await Promise.allSettled([
      changeRoom(h.staff, { stayId: stay.id, targetRoomId: b.id }),
      changeRoom(h.staff, { stayId: stay.id, targetRoomId: c.id }),
    ]);
    const won = results.filter((r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof changeRoom>>> => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toEqual([expect.objectContaining({ reason: expect.objectContaining({ code: 'CONFLICT' }) })]);
    const target = won[0]!.value.roomId;
    const issued = await ctx.deps.prisma.lockPassword.findMany({ where: { hotelId: h.hotel.id, code: '418053', id: { not: code.id } } });
    expect(issued.map((p) => [p.roomId, p.stayId])).toEqual([[target, won[0]!.value.id]]);
    // The old code was revoked once (one new version).
    expect(await password(code.id)).toMatchObject({ deliveryState: 'removed', version: 2 });
    const targetLock = target === b.id ? b.lockId! : c.lockId!;
    const otherLock = target === b.id ? c.lockId! : b.lockId!;
    await password(issued[0]!.id);
    expect(await use(targetLock, { passcode: '418053' })).toMatchObject({ opened: true });
    expect(await use(otherLock, { passcode: '418053' })).toMatchObject({ opened: false });
  });
});

describe('a renewal and the written cards', () => {
  it('names the written cards that need rewriting; cards sent over the air and codes reach the new end on their locks', async () => {
    const h = await hotelWithRooms(1);
    const [a] = h.rooms as [(typeof h.rooms)[0]];
    const stay = await stayIn(h.staff, a.id);
    const uid = randomBytes(4).toString('hex').toUpperCase();
    const write = await reserveCard(h.staff, { uid, kind: 'room', stayId: stay.id });
    const written = await confirmCard(h.staff, { issueId: write.issue.id, uid, blocks: write.blocks });
    const code = await createPassword(h.staff, { roomId: a.id, stayId: stay.id, kind: 'custom', code: '527184' });
    await password(code.id);
    // A whole minute: a custom code's validity is kept to the minute.
    const newEnd = new Date(Math.ceil((Date.parse(stay.expectedCheckOutAt) + 24 * 3_600_000) / 60_000) * 60_000);

    const renewed = await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: newEnd });
    expect(renewed.rewriteCards).toEqual([{ issueId: written.id, cardNumber: written.cardNumber }]);
    expect(renewed.extendedCredentials).toBe(1);
    expect(await password(code.id)).toMatchObject({ deliveryState: 'on_lock', validUntil: newEnd });
    const keys = await stayKeys(h.staff, { stayId: stay.id });
    expect(keys.cards.map((c) => [c.id, c.needsRewrite])).toEqual([[written.id, true]]);
    expect(keys.movedFrom).toBeNull();

    // Written again in place: nothing left to rewrite.
    const again = await reserveCard(h.staff, { uid, kind: 'room', stayId: stay.id, replaces: written.id });
    await confirmCard(h.staff, { issueId: again.issue.id, uid, blocks: again.blocks });
    expect((await stayKeys(h.staff, { stayId: stay.id })).cards.map((c) => [c.id, c.needsRewrite])).toEqual([[again.issue.id, false]]);
    const later = new Date(newEnd.getTime() + 3_600_000);
    expect((await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: later })).rewriteCards).toEqual([
      { issueId: again.issue.id, cardNumber: written.cardNumber },
    ]);
  });
});
