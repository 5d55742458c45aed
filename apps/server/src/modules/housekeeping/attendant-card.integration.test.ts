import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../../db/transaction';
import { actorContext, testMeta } from '../../test/harness';
import { startSimDesk, stopSimDesk, type SimDesk } from '../../test/sim-desk';
import { pairSimLock } from '../../test/lock-factories';
import { createAccount, createHotelWithStaff, createRooms } from '../../test/factories';
import { createSession } from '../auth/session.service';
import type { CardWriteDto } from '../cards/card-dto';
import { cardKeyStates } from '../cards/card-keys.service';
import { reserveCard } from '../cards/card-issue';
import { confirmCard } from '../cards/card-write';
import { noteRotaChange, sweepAttendantAccess, syncAttendantAccess } from './attendant-access';
import { reserveAttendantCard } from './attendant-card';
import { housekeepingDay } from './tasks';

/**
 * An attendant's card (docs/housekeeping-keys.md "Cards"): the rota's keys as a staff card for
 * hotels whose locks take cards only. The card's data comes from the real service (rooms and hours
 * from the rota), is "written" as the desk reader would and confirmed, then held to the simulated
 * locks (apps/lock-sim, which reads cards as offline hotel locks do, with the keys and denylists the
 * delivery engine pushed to it through the real TTLock adapter and BullMQ workers).
 */

let { sim, client, ctx, workers } = {} as SimDesk;
const HOUR = 3_600_000;
const DAY = '2026-12-09';
const newUid = () => randomBytes(4).toString('hex').toUpperCase();

/** What a desk reader leaves on the card: the blocks written, and the key A the trailer set. */
const writtenCard = (write: CardWriteDto, uid: string) => ({ uid, sector: write.sector, keyA: write.trailer.data.slice(0, 12), blocks: write.blocks });

/** The card held to a lock, the lock's clock moved by `offsetMs` for it (then back). */
async function present(lockId: string, dump: ReturnType<typeof writtenCard>, offsetMs = 0) {
  if (offsetMs) await client.control('PATCH', `/locks/${lockId}`, { clockOffsetMs: offsetMs });
  try {
    return await client.presentCard(Number(lockId), dump);
  } finally {
    if (offsetMs) await client.control('PATCH', `/locks/${lockId}`, { clockOffsetMs: 0 });
  }
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

/** A hotel with rooms on simulated locks, a supervisor, two attendants, and a shift of the first from an hour ago for three hours. */
async function world(roomCount = 3) {
  const h = await createHotelWithStaff(ctx.deps);
  const names = Array.from({ length: roomCount }, (_, i) => `K${Date.now() % 100_000}-${i}`);
  const { rooms: created } = await createRooms(ctx.deps, h.hotel.id, names);
  const rooms: { id: number; name: string; lockId: string }[] = [];
  for (const room of created) {
    const { lockId } = await client.lockWithGateway();
    await pairSimLock(ctx.deps, h.hotel.id, room.id, lockId);
    rooms.push({ id: room.id, name: room.name, lockId: String(lockId) });
  }
  const member = async (role: 'housekeeping' | 'housekeeping_supervisor') => {
    const account = await createAccount(ctx.deps, { hotelId: h.hotel.id, role });
    const m = await ctx.deps.prisma.membership.findFirstOrThrow({ where: { hotelId: h.hotel.id, accountId: account.id } });
    const session = await createSession(ctx.deps, { accountId: account.id, hotelId: h.hotel.id, kind: 'web', meta: testMeta() });
    return { membershipId: m.id, name: account.nickname, actor: await actorContext(ctx.deps, session.token) };
  };
  const ann = await member('housekeeping');
  const bea = await member('housekeeping');
  const supervisor = (await member('housekeeping_supervisor')).actor;
  const now = Date.now();
  const shift = (membershipId: number, startsAt = new Date(now - HOUR), endsAt = new Date(now + 3 * HOUR)) =>
    ctx.deps.prisma.attendantShift.create({ data: { hotelId: h.hotel.id, membershipId, day: new Date(`${DAY}T00:00:00Z`), startsAt, endsAt } });
  const task = (roomId: number, assigneeId: number | null) =>
    ctx.deps.prisma.housekeepingTask.create({ data: { hotelId: h.hotel.id, roomId, day: new Date(`${DAY}T00:00:00Z`), kind: 'departure', assigneeId } });
  /** A change of the rota as housekeeping's services make it: written, noted, synced once committed. */
  const change = (membershipIds: number[], write: (tx: Parameters<Parameters<typeof transaction>[1]>[0]) => Promise<unknown>) =>
    transaction(ctx.deps, async (tx) => {
      await write(tx);
      noteRotaChange(tx, supervisor, { hotelId: h.hotel.id, day: DAY, membershipIds });
    });
  return {
    ...h,
    rooms,
    ann,
    bea,
    supervisor,
    shift,
    task,
    change,
    owner: await actorContext(ctx.deps, h.ownerToken),
    desk: await actorContext(ctx.deps, h.staffToken),
  };
}
type World = Awaited<ReturnType<typeof world>>;

/** Writes the attendant's card as the desk does: reserve (the rota decides), "write", read back, confirm. */
async function writeCard(w: World, membershipId: number, uid = newUid(), by = w.supervisor) {
  const write = await reserveAttendantCard(by, { membershipId, day: DAY, uid });
  const issue = await confirmCard(by, { issueId: write.issue.id, uid, blocks: write.blocks });
  return { write, issue, dump: writtenCard(write, uid) };
}

/** The hotel's locks hold its card keys (pushed by the delivery engine once the first card made them). */
const keysOnLocks = (w: World) =>
  waitFor(
    'card keys on the locks',
    () => cardKeyStates(w.owner),
    (states) => states.length > 0 && states.every((s) => s.deliveryState === 'on_lock'),
  );

/** A writing's grants, settled (their lock did what was asked). */
const grantsSettled = (issueId: number) =>
  waitFor(
    `grants of card ${issueId}`,
    () => ctx.deps.prisma.cardGrant.findMany({ where: { issueId }, orderBy: { roomId: 'asc' } }),
    (grants) => grants.every((g) => !['pending', 'removing'].includes(g.deliveryState)),
  );

const issueRow = (id: number) => ctx.deps.prisma.cardIssue.findUniqueOrThrow({ where: { id } });

beforeAll(async () => void ({ sim, client, ctx, workers } = await startSimDesk()));
afterAll(() => stopSimDesk({ sim, ctx, workers }));

describe("an attendant's card follows the rota", () => {
  it('opens her rooms at their locks in the shift hours only; refused at another room and before or after the shift', async () => {
    const w = await world(3);
    const [a, b, c] = w.rooms as [World['rooms'][number], World['rooms'][number], World['rooms'][number]];
    const shift = await w.shift(w.ann.membershipId);
    await w.task(a.id, w.ann.membershipId);
    await w.task(b.id, w.ann.membershipId);
    await w.task(c.id, w.bea.membershipId);

    const { issue, dump } = await writeCard(w, w.ann.membershipId);
    // A staff card of her rooms (the rota's, not the browser's), from now to the shift's end, in her name.
    expect(issue).toMatchObject({ state: 'issued', kind: 'management', holderName: w.ann.name, needsRewrite: false });
    expect(issue.attendant).toEqual({ membershipId: w.ann.membershipId, day: DAY, rewriteReasons: [] });
    expect(issue.grants.map((g) => g.roomId).sort((x, y) => x - y)).toEqual([a.id, b.id]);
    expect(new Date(issue.validUntil!).getTime()).toBe(Math.ceil(shift.endsAt.getTime() / 60_000) * 60_000);
    expect(new Date(issue.validFrom).getTime()).toBeLessThanOrEqual(Date.now());
    expect(new Date(issue.validFrom).getTime()).toBeGreaterThan(Date.now() - 2 * 60_000);
    await keysOnLocks(w);

    expect(await present(a.lockId, dump)).toMatchObject({ opened: true, outcome: 'opened' });
    expect(await present(b.lockId, dump)).toMatchObject({ opened: true, outcome: 'opened' });
    expect(await present(c.lockId, dump)).toMatchObject({ opened: false, outcome: 'wrong_room' });
    expect(await present(a.lockId, dump, -2 * HOUR)).toMatchObject({ opened: false, outcome: 'not_yet_valid' });
    expect(await present(a.lockId, dump, 3 * HOUR + 60_000)).toMatchObject({ opened: false, outcome: 'expired' });

    // The supervisor's page shows her card and the rooms it opens.
    const page = await housekeepingDay(w.supervisor, { day: DAY });
    expect(page.cards).toEqual([
      expect.objectContaining({
        membershipId: w.ann.membershipId,
        issueId: issue.id,
        state: 'issued',
        rewriteReasons: [],
        rooms: [expect.objectContaining({ id: a.id }), expect.objectContaining({ id: b.id })],
      }),
    ]);
    // A supervisor of room A only writes no card that opens room B, and is told of room A alone.
    const account = await createAccount(ctx.deps, { hotelId: w.hotel.id, role: 'housekeeping_supervisor' });
    const limited = await ctx.deps.prisma.membership.update({
      where: { accountId_hotelId: { accountId: account.id, hotelId: w.hotel.id } },
      data: { allRooms: false },
    });
    await ctx.deps.prisma.membershipRoom.create({ data: { hotelId: w.hotel.id, membershipId: limited.id, roomId: a.id } });
    const floorSupervisor = await actorContext(
      ctx.deps,
      (await createSession(ctx.deps, { accountId: limited.accountId, hotelId: w.hotel.id, kind: 'web', meta: testMeta() })).token,
    );
    await expect(reserveAttendantCard(floorSupervisor, { membershipId: w.ann.membershipId, day: DAY, uid: newUid() })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await housekeepingDay(floorSupervisor, { day: DAY })).cards).toEqual([
      expect.objectContaining({ membershipId: w.ann.membershipId, rooms: [expect.objectContaining({ id: a.id })] }),
    ]);

    // The card's confirmation brought her keys in line with the rota (the rota's job): her code of the
    // round is on her two rooms' locks beside the card.
    await waitFor(
      'her codes of the round',
      () => ctx.deps.prisma.lockPassword.count({ where: { hotelId: w.hotel.id, attendantId: w.ann.membershipId, revokeReason: null } }),
      (n) => n === 2,
    );
    // The shift's end withdraws the codes and sends nothing for the card: it stops by its own validity.
    expect(await syncAttendantAccess(w.supervisor, w.hotel.id, w.ann.membershipId, DAY, new Date(shift.endsAt.getTime() + 60_000))).toEqual({
      issued: 0,
      withdrawn: 2,
      changed: 0,
    });
    expect((await grantsSettled(issue.id)).map((g) => g.deliveryState)).toEqual(['on_lock', 'on_lock']);
  });

  it("a reassigned room refuses her card at that room's lock only; rooms added and a shift cut short mark it to be written again", async () => {
    const w = await world(3);
    const [a, b, c] = w.rooms as [World['rooms'][number], World['rooms'][number], World['rooms'][number]];
    const shift = await w.shift(w.ann.membershipId);
    await w.shift(w.bea.membershipId);
    const taskA = await w.task(a.id, w.ann.membershipId);
    await w.task(b.id, w.ann.membershipId);
    const taskC = await w.task(c.id, w.bea.membershipId);
    const { issue, dump } = await writeCard(w, w.ann.membershipId);
    await keysOnLocks(w);
    expect(await present(a.lockId, dump)).toMatchObject({ opened: true });

    // Room A goes to Bea: once the change committed, Ann's card is denylisted at A's lock, and opens B still.
    await w.change([w.ann.membershipId, w.bea.membershipId], (tx) =>
      tx.housekeepingTask.update({ where: { id: taskA.id }, data: { assigneeId: w.bea.membershipId } }),
    );
    const grants = await waitFor(
      'the grant of room A taken off',
      () => grantsSettled(issue.id),
      (gs) => gs.find((g) => g.roomId === a.id)?.deliveryState === 'removed',
    );
    expect(grants.map((g) => [g.roomId, g.deliveryState, g.revokeReason])).toEqual([
      [a.id, 'removed', 'reassigned'],
      [b.id, 'on_lock', null],
    ]);
    expect(await present(a.lockId, dump)).toMatchObject({ opened: false, outcome: 'denylisted' });
    expect(await present(b.lockId, dump)).toMatchObject({ opened: true, outcome: 'opened' });
    expect(await issueRow(issue.id)).toMatchObject({ state: 'issued', rewriteReasons: ['rooms_removed'] });
    // Again: nothing more to change.
    expect(await syncAttendantAccess(w.supervisor, w.hotel.id, w.ann.membershipId, DAY)).toEqual({ issued: 0, withdrawn: 0, changed: 0 });
    expect((await issueRow(issue.id)).rewriteReasons).toEqual(['rooms_removed']);

    // Room C is added to her round: the card cannot learn it; it is marked, and the page says so.
    await w.change([w.ann.membershipId, w.bea.membershipId], (tx) =>
      tx.housekeepingTask.update({ where: { id: taskC.id }, data: { assigneeId: w.ann.membershipId } }),
    );
    await waitFor(
      'rooms added marked',
      () => issueRow(issue.id),
      (i) => i.rewriteReasons.includes('rooms_added'),
    );
    expect(await present(c.lockId, dump)).toMatchObject({ opened: false, outcome: 'wrong_room' });
    const page = await housekeepingDay(w.supervisor, { day: DAY });
    expect(page.cards.find((x) => x.membershipId === w.ann.membershipId)).toMatchObject({
      state: 'issued',
      rewriteReasons: ['rooms_removed', 'rooms_added'],
      rooms: [expect.objectContaining({ id: b.id })],
    });

    // The shift is cut short to end in an hour: the card, valid two hours more, is refused at all its locks.
    await w.change([w.ann.membershipId], (tx) => tx.attendantShift.update({ where: { id: shift.id }, data: { endsAt: new Date(Date.now() + HOUR) } }));
    await waitFor(
      'the card ended',
      () => issueRow(issue.id),
      (i) => i.state === 'ended',
    );
    await waitFor(
      'every grant off its lock',
      () => grantsSettled(issue.id),
      (gs) => gs.every((g) => g.deliveryState === 'removed'),
    );
    expect(await present(b.lockId, dump)).toMatchObject({ opened: false, outcome: 'denylisted' });
    expect(await issueRow(issue.id)).toMatchObject({ endReason: 'shift_changed', rewriteReasons: ['shift_changed'] });
    expect((await housekeepingDay(w.supervisor, { day: DAY })).cards.find((x) => x.membershipId === w.ann.membershipId)).toMatchObject({
      state: 'ended',
      rewriteReasons: ['shift_changed'],
    });

    // Written again on the same card: her rooms now (B and C) to the new end; it opens them.
    const again = await writeCard(w, w.ann.membershipId, dump.uid);
    expect(again.issue.grants.map((g) => g.roomId).sort((x, y) => x - y)).toEqual([b.id, c.id]);
    expect(await present(c.lockId, again.dump)).toMatchObject({ opened: true });
    expect(await present(b.lockId, again.dump)).toMatchObject({ opened: true });
    expect(await present(a.lockId, again.dump)).toMatchObject({ opened: false, outcome: 'wrong_room' });
  });

  it('a room given to another while her card is being written is refused at that door once the card is confirmed', async () => {
    const w = await world(2);
    const [a, b] = w.rooms as [World['rooms'][number], World['rooms'][number]];
    await w.shift(w.ann.membershipId);
    await w.shift(w.bea.membershipId);
    const taskA = await w.task(a.id, w.ann.membershipId);
    await w.task(b.id, w.ann.membershipId);
    const uid = newUid();
    const write = await reserveAttendantCard(w.supervisor, { membershipId: w.ann.membershipId, day: DAY, uid });
    // Between the reservation (rooms A and B) and the card read back, room A goes to Bea.
    await w.change([w.ann.membershipId, w.bea.membershipId], (tx) =>
      tx.housekeepingTask.update({ where: { id: taskA.id }, data: { assigneeId: w.bea.membershipId } }),
    );
    const issue = await confirmCard(w.supervisor, { issueId: write.issue.id, uid, blocks: write.blocks });
    const dump = writtenCard(write, uid);
    await keysOnLocks(w);
    await waitFor(
      'the grant of room A taken off after the confirmation',
      () => grantsSettled(issue.id),
      (gs) => gs.find((g) => g.roomId === a.id)?.deliveryState === 'removed',
    );
    expect(await present(a.lockId, dump)).toMatchObject({ opened: false, outcome: 'denylisted' });
    expect(await present(b.lockId, dump)).toMatchObject({ opened: true });
    expect(await issueRow(issue.id)).toMatchObject({ state: 'issued', rewriteReasons: ['rooms_removed'] });
  });

  it('the rota decides: no shift, a shift over, no rooms, more rooms than a card holds, and who may ask', async () => {
    const w = await world(1);
    const [a] = w.rooms as [World['rooms'][number]];
    const uid = newUid();
    const ask = (membershipId: number, by = w.supervisor) => reserveAttendantCard(by, { membershipId, day: DAY, uid });
    await w.task(a.id, w.ann.membershipId);
    await expect(ask(w.ann.membershipId)).rejects.toMatchObject({ code: 'VALIDATION', message: 'housekeeping.errors.cardNoShift' });
    const shift = await w.shift(w.ann.membershipId, new Date(Date.now() - 3 * HOUR), new Date(Date.now() - HOUR));
    await expect(ask(w.ann.membershipId)).rejects.toMatchObject({ code: 'VALIDATION', message: 'housekeeping.errors.cardShiftEnded' });
    await ctx.deps.prisma.attendantShift.update({ where: { id: shift.id }, data: { endsAt: new Date(Date.now() + HOUR) } });
    await w.shift(w.bea.membershipId);
    await expect(ask(w.bea.membershipId)).rejects.toMatchObject({ code: 'VALIDATION', message: 'housekeeping.errors.cardNoRooms' });

    // Eight rooms spread over more than 96 lock numbers fit on no card.
    const { rooms: many } = await createRooms(
      ctx.deps,
      w.hotel.id,
      Array.from({ length: 8 }, (_, i) => `M${Date.now() % 100_000}-${i}`),
    );
    for (const [i, room] of many.entries()) {
      await ctx.deps.prisma.room.update({ where: { id: room.id }, data: { lockNumber: 1000 + i * 50 } });
      await w.task(room.id, w.bea.membershipId);
    }
    await expect(ask(w.bea.membershipId)).rejects.toMatchObject({ code: 'VALIDATION', message: 'cards.errors.tooManyRooms' });

    // The front desk (no housekeeping.manage) and an attendant may not; the owner may.
    await expect(ask(w.ann.membershipId, w.desk)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(ask(w.ann.membershipId, w.ann.actor)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const byOwner = await ask(w.ann.membershipId, w.owner);
    expect(byOwner.issue).toMatchObject({ state: 'reserved', attendant: { membershipId: w.ann.membershipId } });
    // The supervisor confirms an attendant's card, never another card.
    const other = await createRooms(ctx.deps, w.hotel.id, [`G${Date.now() % 100_000}`]);
    const otherUid = newUid();
    const management = await reserveCard(w.owner, { uid: otherUid, kind: 'management', roomIds: [other.rooms[0]!.id] });
    await expect(confirmCard(w.supervisor, { issueId: management.issue.id, uid: otherUid, blocks: management.blocks })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it("refuses another hotel's membership, and two identical requests at once reserve one card", async () => {
    const w = await world(2);
    const v = await world(1);
    await w.shift(w.ann.membershipId);
    await v.shift(v.ann.membershipId);
    for (const room of w.rooms) await w.task(room.id, w.ann.membershipId);
    await v.task(v.rooms[0]!.id, v.ann.membershipId);
    // Hotel W's supervisor naming hotel V's attendant finds nobody.
    await expect(reserveAttendantCard(w.supervisor, { membershipId: v.ann.membershipId, day: DAY, uid: newUid() })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await ctx.deps.prisma.cardIssue.count({ where: { attendantId: v.ann.membershipId } })).toBe(0);

    const uid = newUid();
    const [first, second] = await Promise.all([
      reserveAttendantCard(w.supervisor, { membershipId: w.ann.membershipId, day: DAY, uid }),
      reserveAttendantCard(w.supervisor, { membershipId: w.ann.membershipId, day: DAY, uid }),
    ]);
    expect(second.issue.id).toBe(first.issue.id);
    expect(second.blocks).toEqual(first.blocks);
    expect(await ctx.deps.prisma.cardIssue.count({ where: { hotelId: w.hotel.id, attendantId: w.ann.membershipId } })).toBe(1);
    const issued = await confirmCard(w.supervisor, { issueId: first.issue.id, uid, blocks: first.blocks });
    expect(issued.state).toBe('issued');
  });

  it('the sweep refuses the card of a member removed from the hotel (her shift gone with her)', async () => {
    const w = await world(1);
    const [a] = w.rooms as [World['rooms'][number]];
    await w.shift(w.ann.membershipId);
    await w.task(a.id, w.ann.membershipId);
    const { issue, dump } = await writeCard(w, w.ann.membershipId);
    await keysOnLocks(w);
    expect(await present(a.lockId, dump)).toMatchObject({ opened: true });
    await ctx.deps.prisma.membership.delete({ where: { id: w.ann.membershipId } });
    await sweepAttendantAccess(w.supervisor, new Date(), { hotelId: w.hotel.id });
    expect(await issueRow(issue.id)).toMatchObject({ state: 'ended', endReason: 'shift_ended' });
    await waitFor(
      'the grant off its lock',
      () => grantsSettled(issue.id),
      (gs) => gs.every((g) => g.deliveryState === 'removed'),
    );
    expect(await present(a.lockId, dump)).toMatchObject({ opened: false, outcome: 'denylisted' });
  });
});
