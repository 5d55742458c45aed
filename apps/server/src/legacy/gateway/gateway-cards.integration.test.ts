import { randomBytes, randomUUID } from 'node:crypto';
import type { SimClient } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, AuthedContext } from '../../context';
import { cardKeyStates } from '../../modules/cards/card-keys.service';
import { refreshLockStatus } from '../../modules/locks/lock-status';
import { pollLockRecords } from '../../modules/locks/records';
import { checkIn } from '../../modules/stays/check-in';
import { actorContext } from '../../test/harness';
import { pairSimLock } from '../../test/lock-factories';
import { TEST_PASSWORD, createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { gatewayClient } from '../../test/gateway-client';
import type { GatewayCard } from './convert';
import type { gatewayRecords } from './records';
import type { gatewayRoom } from './rooms';
import { startSimDesk, stopSimDesk, type SimDesk } from '../../test/sim-desk';

/**
 * The card-service gateway with real locks (simulated): a desk program signs in, finds the room,
 * has the card's data made, "writes" it as a reader would (the blocks and the trailer's key A on
 * a card with that UID), confirms the read-back, and the card opens the room's lock in
 * apps/lock-sim (which reads cards as offline hotel locks do, with the keys the delivery engine
 * pushed through the real TTLock adapter and BullMQ workers); taken back through the gateway, the
 * lock refuses it. And hotel B's token finds none of hotel A's rooms, stays or cards.
 */
let gw: ReturnType<typeof gatewayClient>;
let ipCounter = 0;
const freshIp = () => `172.30.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const newUid = () => randomBytes(4).toString('hex').toUpperCase();

interface RoomPage {
  items: ReturnType<typeof gatewayRoom>[];
}
interface Reserved {
  issueId: number;
  card: GatewayCard;
  sector: number;
  openKeys: string[];
  blocks: { block: number; data: string }[];
  trailer: { block: number; data: string };
}
interface Ended {
  card: GatewayCard;
  clear: { block: number; data: string }[];
}
interface Records {
  cards: { items: GatewayCard[]; total: number };
  unlocks: ReturnType<typeof gatewayRecords>;
}

let { sim, client, ctx, workers } = {} as SimDesk;
beforeAll(async () => {
  ({ sim, client, ctx, workers } = await startSimDesk());
  gw = gatewayClient(ctx.app);
});
afterAll(() => stopSimDesk({ sim, ctx, workers }));

type Staff = AuthedContext & { actor: Actor };

/** A hotel whose rooms are each paired with a new simulated lock, a guest checked in to the first, and a gateway token of its staff. */
async function hotelWithLocks(count: number, guest = 'Lin Wei') {
  const h = await createHotelWithStaff(ctx.deps);
  const names = Array.from({ length: count }, (_, i) => `W${randomUUID().slice(0, 6)}-${i}`);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, names);
  const paired = [];
  for (const room of rooms) {
    const { lockId } = await client.lockWithGateway();
    await pairSimLock(ctx.deps, h.hotel.id, room.id, lockId);
    paired.push({ ...(await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: room.id } })), lockId: String(lockId) });
  }
  const staff: Staff = await actorContext(ctx.deps, h.staffToken);
  const stay = await checkIn(staff, {
    roomId: paired[0]!.id,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
    guests: [{ name: guest, mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
  const token = await gw.login(h.staff.mobile!, TEST_PASSWORD, { ip: freshIp() });
  return { ...h, rooms: paired, staff, stay, token };
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
const keysOnLocks = (staff: Staff) =>
  waitFor(
    'card keys on the locks',
    () => cardKeyStates(staff),
    (states) => states.length > 0 && states.every((s) => s.deliveryState === 'on_lock'),
  );

/** Writes a card through the gateway as a desk program does; answers what the reader leaves on it. */
async function writeCard(token: string, body: Record<string, unknown>) {
  const uid = newUid();
  const reserved = await gw.post<Reserved>('/linQuan/writeRoomCard', { ...body, uid }, { token });
  expect(reserved.code).toBe(200);
  // The reader opens the sector with one of openKeys (a blank card: the factory key), writes the
  // three blocks, then the trailer; and reads the blocks back with the trailer's new key A.
  expect(reserved.data.openKeys).toContain('FFFFFFFFFFFF');
  const dump = { uid, sector: reserved.data.sector, keyA: reserved.data.trailer.data.slice(0, 12), blocks: reserved.data.blocks };
  const confirmed = await gw.post<{ card: GatewayCard }>(
    '/linQuan/writeRoomCard',
    { step: 'confirm', issueId: reserved.data.issueId, uid, blocks: dump.blocks },
    { token },
  );
  expect(confirmed).toMatchObject({ code: 200, data: { card: { state: 'issued' } } });
  return { uid, issueId: reserved.data.issueId, card: confirmed.data.card, dump, reserved: reserved.data };
}

const present = (lockId: string, dump: Parameters<SimClient['presentCard']>[1]) => client.presentCard(Number(lockId), dump);

describe('the card-service gateway at the lock', () => {
  it('login -> rooms -> reserve -> confirm -> the card opens its room (recorded) -> taken back -> refused', async () => {
    const h = await hotelWithLocks(2, 'Ada Brandt');

    const rooms = await gw.get<RoomPage>('/linQuan/getRoomListByHotelId', { hotelId: h.hotel.id }, { token: h.token });
    const room = rooms.data.items.find((r) => r.currentStay !== null)!;
    expect(room).toMatchObject({ roomId: h.rooms[0]!.id, lockId: h.rooms[0]!.lockId, currentStay: { stayId: h.stay.id, guestName: 'Ada Brandt' } });

    const written = await writeCard(h.token, { roomId: room.roomId });
    expect(written.card).toMatchObject({
      cardType: 'room',
      holderName: 'Ada Brandt',
      stayId: h.stay.id,
      generation: 1,
      rooms: [{ roomId: room.roomId, deliveryState: 'on_lock' }],
    });
    await keysOnLocks(h.staff);

    expect(await present(h.rooms[0]!.lockId, written.dump)).toMatchObject({ opened: true, outcome: 'opened' });
    expect(await present(h.rooms[1]!.lockId, written.dump)).toMatchObject({ opened: false, outcome: 'wrong_room' });

    // The lock's records reach the server; the gateway shows the opening under the card.
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    await pollLockRecords(ctx.deps, { hotelId: h.hotel.id });
    const records = await gw.post<Records>('/linQuan/getAuthorizationRecord', { type: 'all', roomId: room.roomId }, { token: h.token });
    expect(records.data.cards.items).toEqual([expect.objectContaining({ issueId: written.issueId, state: 'issued' })]);
    expect(records.data.unlocks.items).toEqual([expect.objectContaining({ style: 'card', success: true, operator: 'Ada Brandt', issueId: written.issueId })]);

    // Taken back at the desk: the blocks to clear, and the lock refuses the card once the engine has denylisted it.
    const back = await gw.post<Ended>('/linQuan/deleteRoomCard', { uid: written.uid }, { token: h.token });
    expect(back).toMatchObject({ code: 200, data: { card: { state: 'returned' }, clear: [{ block: 4 }, { block: 5 }, { block: 6 }] } });
    await waitFor(
      'the returned card off its lock',
      () => gw.post<Records>('/linQuan/getAuthorizationRecord', { issueId: written.issueId }, { token: h.token }),
      (r) => r.data.cards.items[0]?.rooms[0]?.deliveryState === 'removed',
    );
    expect(await present(h.rooms[0]!.lockId, written.dump)).toMatchObject({ opened: false, outcome: 'denylisted' });
    // A card cleared as the answer says reads as blank at the lock.
    expect(await present(h.rooms[0]!.lockId, { ...written.dump, blocks: back.data.clear })).toMatchObject({ opened: false, outcome: 'blank' });
  });

  it('a card reported lost through the gateway is refused at its lock; a new card of the room voids the older one', async () => {
    const h = await hotelWithLocks(1);
    const lockId = h.rooms[0]!.lockId;
    const first = await writeCard(h.token, { stayId: h.stay.id });
    const copy = await writeCard(h.token, { stayId: h.stay.id, mode: 'duplicate' });
    await keysOnLocks(h.staff);
    expect(await present(lockId, first.dump)).toMatchObject({ opened: true });
    expect(await present(lockId, copy.dump)).toMatchObject({ opened: true });

    expect(await gw.post('/linQuan/deleteRoomCard', { cardNumber: copy.card.cardNumber, type: 'lost' }, { token: h.token })).toMatchObject({
      code: 200,
      data: { card: { state: 'lost' } },
    });
    await waitFor(
      'the lost card denylisted',
      () => gw.post<Records>('/linQuan/getAuthorizationRecord', { issueId: copy.issueId }, { token: h.token }),
      (r) => r.data.cards.items[0]?.rooms[0]?.deliveryState === 'removed',
    );
    expect(await present(lockId, copy.dump)).toMatchObject({ opened: false, outcome: 'denylisted' });

    const fresh = await writeCard(h.token, { roomId: h.rooms[0]!.id, mode: 'new' });
    expect(fresh.card.generation).toBe(2);
    expect(await present(lockId, fresh.dump)).toMatchObject({ opened: true });
    expect(await present(lockId, first.dump)).toMatchObject({ opened: false });
  });

  it("hotel B's token finds none of hotel A's rooms, stays or cards (404), and hotel A's card never opens hotel B's lock", async () => {
    const a = await hotelWithLocks(1);
    const b = await hotelWithLocks(1);
    const cardA = await writeCard(a.token, { roomId: a.rooms[0]!.id });
    const cardB = await writeCard(b.token, { roomId: b.rooms[0]!.id });
    const pendingA = await gw.post<Reserved>('/linQuan/writeRoomCard', { uid: newUid(), stayId: a.stay.id, mode: 'duplicate' }, { token: a.token });
    await keysOnLocks(a.staff);
    await keysOnLocks(b.staff);

    // A's card at B's lock: B's keys cannot even read it; B's own card opens B's lock.
    expect(await present(b.rooms[0]!.lockId, cardA.dump)).toMatchObject({ opened: false, outcome: 'unreadable' });
    expect(await present(b.rooms[0]!.lockId, cardB.dump)).toMatchObject({ opened: true });
    expect(await present(a.rooms[0]!.lockId, cardB.dump)).toMatchObject({ opened: false, outcome: 'unreadable' });

    const asB = { token: b.token };
    const notFound = [
      await gw.get('/linQuan/getRoomListByHotelId', { hotelId: a.hotel.id }, asB),
      await gw.post('/linQuan/writeRoomCard', { uid: newUid(), roomId: a.rooms[0]!.id }, asB),
      await gw.post('/linQuan/writeRoomCard', { uid: newUid(), stayId: a.stay.id }, asB),
      await gw.post('/linQuan/writeRoomCard', { uid: newUid(), cardType: 'management', roomIds: [a.rooms[0]!.id], endTime: '2099-01-01 00:00' }, asB),
      await gw.post(
        '/linQuan/writeRoomCard',
        { step: 'confirm', issueId: pendingA.data.issueId, uid: pendingA.data.card.uid, blocks: pendingA.data.blocks },
        asB,
      ),
      await gw.post('/linQuan/writeRoomCard', { step: 'void', issueId: pendingA.data.issueId }, asB),
      await gw.post('/linQuan/deleteRoomCard', { uid: cardA.uid }, asB),
      await gw.post('/linQuan/deleteRoomCard', { cardNumber: cardA.card.cardNumber, type: 'lost' }, asB),
      await gw.post('/linQuan/deleteRoomCard', { issueId: cardA.issueId, type: 'revoke' }, asB),
      await gw.post('/linQuan/getAuthorizationRecord', { roomId: a.rooms[0]!.id }, asB),
      await gw.post('/linQuan/getAuthorizationRecord', { stayId: a.stay.id }, asB),
      await gw.post('/linQuan/getAuthorizationRecord', { issueId: cardA.issueId, type: 'all' }, asB),
      await gw.post('/linQuan/getAuthorizationRecord', { type: 'unlocks', roomId: a.rooms[0]!.id }, asB),
    ];
    expect(notFound.map((r) => [r.status, r.code])).toEqual(notFound.map(() => [404, 404]));
    // Nothing of A's shows in B's lists.
    const bRooms = await gw.get<RoomPage>('/linQuan/getRoomListByHotelId', undefined, asB);
    expect(bRooms.data.items.map((r) => r.roomId)).toEqual([b.rooms[0]!.id]);
    const bCards = await gw.post<Records>('/linQuan/getAuthorizationRecord', { type: 'all', search: cardA.card.cardNumber }, asB);
    expect(bCards.data.cards.total).toBe(0);
    expect(bCards.data.unlocks.items.every((r) => r.roomId === b.rooms[0]!.id)).toBe(true);

    // A's cards are untouched: still issued, the reservation still open, and the card still opens A's lock.
    const mine = await gw.post<Records>('/linQuan/getAuthorizationRecord', { roomId: a.rooms[0]!.id, scope: 'all' }, { token: a.token });
    expect(mine.data.cards.items.map((c) => [c.issueId, c.state])).toEqual(
      expect.arrayContaining([
        [cardA.issueId, 'issued'],
        [pendingA.data.issueId, 'reserved'],
      ]),
    );
    expect(await present(a.rooms[0]!.lockId, cardA.dump)).toMatchObject({ opened: true });
  });
});
