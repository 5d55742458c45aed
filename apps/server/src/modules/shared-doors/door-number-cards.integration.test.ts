import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobContext, type Actor, type AuthedContext } from '../../context';
import { transaction } from '../../db/transaction';
import { hotelWithDoors } from '../../test/lock-factories';
import { uniqueMobile } from '../../test/factories';
import { setAccessRule } from '../access-rules/access-rule.service';
import { sendCard } from '../cards/card-send';
import { afterCredentialChange } from '../credentials/delivery';
import { pollLockRecords } from '../locks/records';
import { checkIn } from '../stays/check-in';
import { checkOut } from '../stays/check-out';
import { renewStay } from '../stays/renewal';
import { cancelChannelReservation, moveReservationDates, reserveFromChannel } from '../stays/reservation';
import { scheduleStayJobs } from '../stays/stay-schedule';
import { getSharedDoor, setSharedDoor, stayDoors } from './shared-door.service';
import { startSimDesk, stopSimDesk, type SimDesk } from '../../test/sim-desk';

/**
 * A stay's number card on the shared doors its room is served by (issue 20 §5,
 * docs/shared-doors.md "Number cards"): the card sent by its number, by the desk or by the access
 * rule, is pushed to every door serving the room with the same validity, through the real TTLock
 * adapter against apps/lock-sim, with the real workers, Redis and database; it follows the room's
 * grant (a renewal, moved dates) and comes off with it (check-out, cancellation) or when the door
 * stops serving the room. What opens which door is asked of the simulated locks themselves.
 */

let { sim, client, ctx, workers } = {} as SimDesk;
beforeAll(async () => void ({ sim, client, ctx, workers } = await startSimDesk()));
afterAll(() => stopSimDesk({ sim, ctx, workers }));

type Staff = AuthedContext & { actor: Actor };
const HOUR = 3_600_000;

const hotel = (count: number, doors = 1) => hotelWithDoors(ctx.deps, client, { rooms: count, doors, prefix: 'N' });

async function stayIn(staff: Staff, roomId: number) {
  return checkIn(staff, {
    roomId,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: new Date(Date.now() + 26 * HOUR),
    guests: [{ name: 'Lin Wei', mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
}

const newCardNumber = () => String(3_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
const useCard = (simLockId: string, cardNumber: string) =>
  client.control<{ opened: boolean; outcome: string }>('POST', `/locks/${simLockId}/use`, { cardNumber });
const opens = (simLockId: string, cardNumber: string) =>
  expect.poll(async () => (await useCard(simLockId, cardNumber)).opened, { timeout: 20_000, interval: 100 });
const settled = (state: string) => !['pending', 'removing'].includes(state);

/** The stay's number-card grants on a lock (null: the room's own lock), once all are settled. */
async function grantsOn(stayId: number, doorLockId: number | null, count: number) {
  let rows: Awaited<ReturnType<typeof ctx.deps.prisma.cardGrant.findMany>> = [];
  await expect
    .poll(
      async () => {
        rows = await ctx.deps.prisma.cardGrant.findMany({ where: { stayId, doorLockId, medium: 'number' }, orderBy: { id: 'asc' } });
        return rows.length >= count && rows.every((r) => settled(r.deliveryState));
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
  return rows;
}

/** The card's end date on a simulated lock (undefined: not on it). */
async function endOnLock(simLockId: string, cardNumber: string) {
  const { lock } = await client.control<{ lock: { cards: { cardNumber: string; endDate: number }[] } }>('GET', `/locks/${simLockId}`);
  return lock.cards.find((c) => c.cardNumber === cardNumber)?.endDate;
}

describe('a stay’s number card on the shared doors serving its room', () => {
  it('the desk’s card opens the entrance serving the room, follows a renewal, leaves a door that stops serving the room, and is refused after check-out', async () => {
    const h = await hotel(2, 2);
    const other = await hotel(1, 1);
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const [entrance, gym] = h.doors as [(typeof h.doors)[0], (typeof h.doors)[0]];
    const [otherDoor] = other.doors as [(typeof other.doors)[0]];
    await setSharedDoor(h.owner, { lockId: entrance.id, kind: 'entrance', roomIds: [a.id] });
    await setSharedDoor(h.owner, { lockId: gym.id, kind: 'gym', roomIds: [b.id] });
    // Another hotel's door, serving its own room.
    await setSharedDoor(other.owner, { lockId: otherDoor.id, kind: 'entrance', roomIds: [other.rooms[0]!.id] });
    const stay = await stayIn(h.staff, a.id);
    const cardNumber = newCardNumber();
    const sent = await sendCard(h.staff, { cardNumber, stayId: stay.id });
    // The card's own rooms are listed; its copies on doors are not rooms.
    expect(sent.grants.map((g) => g.roomId)).toEqual([a.id]);

    const [room] = await grantsOn(stay.id, null, 1);
    const [copy] = await grantsOn(stay.id, entrance.id, 1);
    expect(room).toMatchObject({ deliveryState: 'on_lock', roomId: a.id });
    expect(copy).toMatchObject({ deliveryState: 'on_lock', medium: 'number', issueId: sent.id, cardId: room!.cardId, roomId: a.id, stayId: stay.id });
    expect(copy!.validFrom.getTime()).toBe(room!.validFrom.getTime());
    expect(copy!.validUntil!.getTime()).toBe(room!.validUntil!.getTime());
    expect(await useCard(a.simLockId, cardNumber)).toMatchObject({ opened: true });
    expect(await useCard(entrance.simLockId, cardNumber)).toMatchObject({ opened: true });
    // A door serving other rooms, and another hotel's door, never get it.
    expect(await useCard(gym.simLockId, cardNumber)).toMatchObject({ opened: false });
    expect(await useCard(otherDoor.simLockId, cardNumber)).toMatchObject({ opened: false });
    expect(await ctx.deps.prisma.cardGrant.count({ where: { stayId: stay.id, doorLockId: gym.id } })).toBe(0);
    expect(await ctx.deps.prisma.cardGrant.count({ where: { OR: [{ doorLockId: otherDoor.id }, { hotelId: other.hotel.id }] } })).toBe(0);
    // The entrance's record names the stay, its room and the card's writing.
    await expect
      .poll(
        async () => {
          await pollLockRecords(ctx.deps, { hotelId: h.hotel.id, all: true });
          return ctx.deps.prisma.unlockRecord.findMany({
            where: { hotelId: h.hotel.id, doorLockId: entrance.id },
            select: { roomId: true, stayId: true, success: true, credential: true },
          });
        },
        { timeout: 20_000, interval: 200 },
      )
      .toEqual([{ roomId: a.id, stayId: stay.id, success: true, credential: `card:${sent.id}` }]);
    // The stay card's list of doors, and the door's count, name it.
    const doors = await stayDoors(h.staff, { stayId: stay.id });
    expect(doors.doors.find((d) => d.lockId === entrance.id)?.credentials).toEqual([
      expect.objectContaining({ kind: 'card', id: copy!.id, copyOfId: room!.id, deliveryState: 'on_lock' }),
    ]);
    expect((await getSharedDoor(h.owner, { lockId: entrance.id })).credentials).toEqual({ onLock: 1, pending: 0, failed: 0 });
    // Another hotel's staff does not see the stay.
    await expect(stayDoors(other.staff, { stayId: stay.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Another reconciliation changes nothing: one copy per door.
    await afterCredentialChange(ctx.deps, h.hotel.id, { stayId: stay.id });
    expect(await ctx.deps.prisma.cardGrant.count({ where: { stayId: stay.id, doorLockId: entrance.id } })).toBe(1);
    // The database holds it too: a second live grant of the writing on the door is refused.
    const { id: _id, version: _version, providerRef: _ref, ...twin } = copy!;
    await expect(ctx.deps.prisma.cardGrant.create({ data: { ...twin, deliveryState: 'pending' } })).rejects.toMatchObject({ code: 'P2002' });

    // A renewal: the room's grant and the door's copy run to the new end, on both locks.
    const newEnd = new Date(new Date(stay.expectedCheckOutAt).getTime() + 24 * HOUR);
    await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: newEnd });
    await expect
      .poll(async () => [await endOnLock(a.simLockId, cardNumber), await endOnLock(entrance.simLockId, cardNumber)], { timeout: 20_000, interval: 100 })
      .toEqual([newEnd.getTime(), newEnd.getTime()]);
    const [renewed] = await grantsOn(stay.id, entrance.id, 1);
    expect(renewed).toMatchObject({ id: copy!.id, deliveryState: 'on_lock' });
    expect(renewed!.validUntil!.getTime()).toBe(newEnd.getTime());

    // The gym serves the room too: the card opens it; then no longer: it comes off and the gym refuses it.
    await setSharedDoor(h.owner, { lockId: gym.id, kind: 'gym', roomIds: [a.id, b.id] });
    await opens(gym.simLockId, cardNumber).toBe(true);
    await setSharedDoor(h.owner, { lockId: gym.id, kind: 'gym', roomIds: [b.id] });
    const [offGym] = await grantsOn(stay.id, gym.id, 1);
    expect(offGym).toMatchObject({ deliveryState: 'removed', revokeReason: 'door_unserved' });
    expect(await useCard(gym.simLockId, cardNumber)).toMatchObject({ opened: false });
    expect(await useCard(entrance.simLockId, cardNumber)).toMatchObject({ opened: true });

    // Check-out: the room's lock and the entrance refuse the card; the writing has ended.
    await checkOut(h.staff, { stayId: stay.id });
    const [roomOff] = await grantsOn(stay.id, null, 1);
    const [entranceOff] = await grantsOn(stay.id, entrance.id, 1);
    expect(roomOff).toMatchObject({ deliveryState: 'removed', revokeReason: 'check_out' });
    expect(entranceOff).toMatchObject({ deliveryState: 'removed', revokeReason: 'check_out' });
    expect(await useCard(entrance.simLockId, cardNumber)).toMatchObject({ opened: false });
    expect(await useCard(a.simLockId, cardNumber)).toMatchObject({ opened: false });
    expect((await ctx.deps.prisma.cardIssue.findUniqueOrThrow({ where: { id: sent.id } })).state).toBe('ended');
  });

  it('the access rule’s card of a reservation opens the entrance, follows moved dates, and is refused after the cancellation', async () => {
    const h = await hotel(1, 1);
    const [a] = h.rooms as [(typeof h.rooms)[0]];
    const [entrance] = h.doors as [(typeof h.doors)[0]];
    await setSharedDoor(h.owner, { lockId: entrance.id, kind: 'entrance', roomIds: [a.id] });
    await setAccessRule(h.owner, {
      enabled: true,
      issueDaysBefore: 2,
      minutesBeforeCheckIn: 180,
      minutesAfterCheckOut: 60,
      codeRule: 'random',
      phoneFallback: 'random',
      codeType: 'custom',
      card: true,
    });
    const job = jobContext(ctx.deps, 'feeds.read', randomUUID());
    const reserve = async (mobile: string, hours: number) => {
      const stay = await transaction(ctx.deps, async (tx) => {
        const r = await reserveFromChannel(tx, job, {
          hotelId: h.hotel.id,
          timeZone: h.hotel.timeZone,
          roomIds: [a.id],
          checkInAt: new Date(Date.now() + 2 * HOUR),
          expectedCheckOutAt: new Date(Date.now() + hours * HOUR),
          guestName: 'Ana Silva',
          mobile,
          remark: 'Airbnb',
        });
        const feed = await tx.calendarFeed.create({ data: { hotelId: h.hotel.id, roomId: a.id, label: 'Airbnb', url: 'http://127.0.0.1:9/doors.ics' } });
        await tx.calendarFeedBooking.create({
          data: {
            hotelId: h.hotel.id,
            feedId: feed.id,
            uid: randomUUID(),
            stayId: r.stay!.id,
            state: 'booked',
            reference: 'HM123',
            guestName: 'Ana Silva',
            phone: mobile,
            startsAt: r.stay!.checkInAt,
            endsAt: r.stay!.expectedCheckOutAt,
          },
        });
        return r.stay!;
      });
      await scheduleStayJobs(ctx.deps, stay, h.hotel.timeZone);
      return stay;
    };
    const cancel = async (stayId: number) => {
      await transaction(ctx.deps, (tx) => cancelChannelReservation(tx, job, { hotelId: h.hotel.id, stayId, note: 'gone' }));
      await afterCredentialChange(ctx.deps, h.hotel.id, { stayId });
    };
    // The guest's own card: the desk sent it for an earlier reservation, then that one was cancelled.
    const mobile = uniqueMobile();
    const first = await reserve(mobile, 26);
    await expect
      .poll(async () => (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: first.id } })).accessCard, { timeout: 20_000 })
      .toBe('card_at_arrival');
    const cardNumber = newCardNumber();
    await sendCard(h.staff, { cardNumber, stayId: first.id });
    await grantsOn(first.id, entrance.id, 1);
    await cancel(first.id);
    expect((await grantsOn(first.id, entrance.id, 1))[0]).toMatchObject({ deliveryState: 'removed', revokeReason: 'cancelled' });
    expect(await useCard(entrance.simLockId, cardNumber)).toMatchObject({ opened: false });

    // The next reservation: the rule sends the guest's card, to the room's lock and to the entrance.
    const again = await reserve(mobile, 20);
    const [room] = await grantsOn(again.id, null, 1);
    const [copy] = await grantsOn(again.id, entrance.id, 1);
    expect(room).toMatchObject({ deliveryState: 'on_lock' });
    expect(copy).toMatchObject({ deliveryState: 'on_lock', issueId: room!.issueId });
    expect(copy!.validUntil!.getTime()).toBe(again.expectedCheckOutAt.getTime() + HOUR);
    expect(await useCard(entrance.simLockId, cardNumber)).toMatchObject({ opened: true });

    // Moved: the copy's period follows the room grant's.
    const checkInAt = new Date(Date.now() + 3 * HOUR);
    const expectedCheckOutAt = new Date(Date.now() + 22 * HOUR);
    await transaction(ctx.deps, (tx) =>
      moveReservationDates(tx, job, { hotelId: h.hotel.id, timeZone: h.hotel.timeZone, stayId: again.id, checkInAt, expectedCheckOutAt, note: 'moved' }),
    );
    await afterCredentialChange(ctx.deps, h.hotel.id, { stayId: again.id });
    await expect.poll(async () => endOnLock(entrance.simLockId, cardNumber), { timeout: 20_000, interval: 100 }).toBe(expectedCheckOutAt.getTime() + HOUR);
    const [moved] = await grantsOn(again.id, entrance.id, 1);
    expect(moved!.validFrom.getTime()).toBe(checkInAt.getTime() - 3 * HOUR);

    // Cancelled: the entrance refuses the card.
    await cancel(again.id);
    expect((await grantsOn(again.id, entrance.id, 1))[0]).toMatchObject({ deliveryState: 'removed', revokeReason: 'cancelled' });
    expect(await useCard(entrance.simLockId, cardNumber)).toMatchObject({ opened: false });
  });
});
