import { randomBytes } from 'node:crypto';
import { startLockSim, SimClient, type LockSim } from '@console/lock-sim';
import { addDays, localDate } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../jobs/workers';
import { reserveCard } from '../../modules/cards/card-issue';
import { confirmCard } from '../../modules/cards/card-write';
import { TEST_PASSWORD, createAccount, createHotel, createRooms, uniqueMobile } from '../../test/factories';
import { createSession } from '../../modules/auth/session.service';
import { actorContext, createTestContext, testLockIdBase, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';
import { pairSimLock } from '../../test/lock-factories';

/**
 * The keys follow the guest over the legacy protocol (issue 17 §2), as an old client drives it
 * (crypto-js DES envelope): `room/exchangeHouses` moves the stay's codes to the new room's lock in
 * the same call, and its answer (extended compatibly) says what became of each; `room/setRenew`
 * names the written cards to write again. The locks are apps/lock-sim behind the real adapter.
 */
let sim: LockSim;
let sims: SimClient;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let ipCounter = 0;
const client = (language = 'en') => legacyClient(ctx.app, ctx.config, { language, ip: `10.78.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

beforeAll(async () => {
  sim = await startLockSim({ latencyMs: [2, 10], lockIdBase: testLockIdBase() });
  sims = new SimClient(sim.url);
  ctx = await createTestContext({ sim, env: { LOCK_DELIVERY_ATTEMPTS: '3', LOCK_DELIVERY_BACKOFF_MS: '100' } });
  workers = startWorkers(ctx.deps, { sweep: false });
});
afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await sim?.close();
});

const tz = 'Asia/Shanghai';
const at = (days: number, time: string) => `${addDays(localDate(new Date(), tz), days)} ${time}`;

/** A hotel whose rooms A and B have simulated locks and C none, and its owner signed in over the legacy protocol. */
async function legacyHotel() {
  const hotel = await createHotel(ctx.deps);
  const owner = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'owner' });
  const { rooms } = await createRooms(ctx.deps, hotel.id, ['L201', 'L202', 'L203']);
  const locks: string[] = [];
  for (const room of rooms.slice(0, 2)) {
    const { lockId } = await sims.lockWithGateway();
    await pairSimLock(ctx.deps, hotel.id, room.id, lockId);
    locks.push(String(lockId));
  }
  const login = await client().call<{ token: string }>('login', { mobile: owner.mobile, password: TEST_PASSWORD });
  // The desk's browser, where room cards are written (the card reader is a browser's).
  const web = await createSession(ctx.deps, { accountId: owner.id, hotelId: hotel.id, kind: 'web', meta: testMeta() });
  return { hotel, rooms, locks, token: login.data.token, desk: () => actorContext(ctx.deps, web.token) };
}

interface Moved {
  kind: string;
  from_id: number;
  to_id: number | null;
  outcome: string;
  undeliverable: string | null;
  undeliverable_text: string | null;
  password_type: string | null;
  password: string | null;
  card_num: string | null;
  face_id: string | null;
  holder: string;
}

async function waitForPassword(id: number, state: string) {
  const until = Date.now() + 20_000;
  for (;;) {
    const row = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } });
    if (row.deliveryState === state) return row;
    if (Date.now() > until) throw new Error(`password ${id} is ${row.deliveryState} (${row.lastError ?? '-'}), not ${state}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('room/exchangeHouses moves the keys', () => {
  it('answers what became of each code (the same code on the new lock, a generated one replaced), and the old lock refuses them', async () => {
    const h = await legacyHotel();
    const c = client();
    const stay = await c.call<{ id: number }>(
      'room/tenant/update/checkIn',
      {
        room_id: h.rooms[0]!.id,
        check_in_time: at(0, '00:00:00'),
        check_out_time: at(2, '12:00:00'),
        guests: [{ name: 'Old Client', mobile: uniqueMobile() }],
        request_id: `k-${Date.now()}`,
      },
      { token: h.token },
    );
    expect(stay.errno).toBe(0);
    const custom = await c.call<{ id: number }>(
      'room/addPassword',
      { room_id: h.rooms[0]!.id, tenant_id: stay.data.id, password: '736051' },
      { token: h.token },
    );
    const generated = await c.call<{ id: number }>('room/password', { room_id: h.rooms[0]!.id, tenant_id: stay.data.id, type: 'air' }, { token: h.token });
    expect([custom.errno, generated.errno]).toEqual([0, 0]);
    await waitForPassword(custom.data.id, 'on_lock');
    const oldCode = (await waitForPassword(generated.data.id, 'on_lock')).code!;

    const moved = await c.call<{
      id: number;
      room_id: number;
      moved_from: number;
      price_difference: number;
      moved_credentials: Moved[];
      cards_to_write: number;
    }>('room/exchangeHouses', { stay_id: stay.data.id, room_id: h.rooms[1]!.id }, { token: h.token });
    expect(moved).toMatchObject({ errno: 0, data: { room_id: h.rooms[1]!.id, moved_from: stay.data.id, price_difference: 0, cards_to_write: 0 } });
    expect(moved.data.moved_credentials).toEqual([
      {
        kind: 'password',
        from_id: custom.data.id,
        to_id: expect.any(Number),
        outcome: 'same_code',
        undeliverable: null,
        undeliverable_text: null,
        password_type: 'custom',
        password: '736051',
        card_num: null,
        face_id: null,
        holder: 'Old Client',
      },
      {
        kind: 'password',
        from_id: generated.data.id,
        to_id: expect.any(Number),
        outcome: 'new_code',
        undeliverable: null,
        undeliverable_text: null,
        password_type: 'air',
        password: null,
        card_num: null,
        face_id: null,
        holder: 'Old Client',
      },
    ]);
    const [sameCode, newCode] = moved.data.moved_credentials;
    await waitForPassword(sameCode!.to_id!, 'on_lock');
    const fresh = await waitForPassword(newCode!.to_id!, 'on_lock');
    // The legacy password list of the new room shows the new code, which names the one it replaced.
    const list = await c.call<{ list: { id: number; password: string; replaces_id: number | null; state: string }[] }>(
      'room/passwordList',
      { room_id: h.rooms[1]!.id },
      { token: h.token },
    );
    expect(list.data.list.find((p) => p.id === fresh.id)).toMatchObject({ password: fresh.code, replaces_id: generated.data.id, state: 'on_lock' });

    const use = (lock: string, passcode: string) => sims.control<{ opened: boolean }>('POST', `/locks/${lock}/use`, { passcode });
    expect(await use(h.locks[1]!, '736051')).toMatchObject({ opened: true });
    expect(await use(h.locks[1]!, fresh.code!)).toMatchObject({ opened: true });
    await waitForPassword(custom.data.id, 'removed');
    await waitForPassword(generated.data.id, 'removed');
    expect(await use(h.locks[0]!, '736051')).toMatchObject({ opened: false });
    expect(await use(h.locks[0]!, oldCode)).toMatchObject({ opened: false });
  });

  it('says, in the request’s language, that a room without a lock cannot take the code, and counts the written cards to write again', async () => {
    const h = await legacyHotel();
    const c = client('zh-CN');
    const stay = await c.call<{ id: number }>(
      'room/tenant/update/checkIn',
      {
        room_id: h.rooms[0]!.id,
        check_in_time: at(0, '00:00:00'),
        check_out_time: at(2, '12:00:00'),
        guests: [{ name: '王芳', mobile: uniqueMobile() }],
        request_id: `k2-${Date.now()}`,
      },
      { token: h.token },
    );
    const custom = await c.call<{ id: number }>(
      'room/addPassword',
      { room_id: h.rooms[0]!.id, tenant_id: stay.data.id, password: '284630' },
      { token: h.token },
    );
    // A card written at the desk for room A.
    const desk = await h.desk();
    const uid = randomBytes(4).toString('hex').toUpperCase();
    const write = await reserveCard(desk, { uid, kind: 'room', stayId: stay.data.id });
    const card = await confirmCard(desk, { issueId: write.issue.id, uid, blocks: write.blocks });

    const moved = await c.call<{ moved_credentials: Moved[]; cards_to_write: number }>(
      'room/exchangeHouses',
      { stay_id: stay.data.id, room_id: h.rooms[2]!.id },
      { token: h.token },
    );
    expect(moved.errno).toBe(0);
    expect(moved.data.cards_to_write).toBe(1);
    expect(moved.data.moved_credentials).toEqual([
      expect.objectContaining({
        kind: 'password',
        from_id: custom.data.id,
        outcome: 'same_code',
        password: '284630',
        undeliverable: 'no_lock',
        undeliverable_text: '该房间未绑定门锁',
      }),
      expect.objectContaining({ kind: 'card', from_id: card.id, to_id: null, outcome: 'ended', card_num: card.cardNumber }),
    ]);
  });
});

describe('room/setRenew names the written cards to write again', () => {
  it('answers rewrite_cards (and what the locks learn) compatibly', async () => {
    const h = await legacyHotel();
    const c = client();
    const stay = await c.call<{ id: number }>(
      'room/tenant/update/checkIn',
      {
        room_id: h.rooms[0]!.id,
        check_in_time: at(0, '00:00:00'),
        check_out_time: at(1, '12:00:00'),
        guests: [{ name: 'Renewing Guest', mobile: uniqueMobile() }],
        request_id: `k3-${Date.now()}`,
      },
      { token: h.token },
    );
    await c.call('room/addPassword', { room_id: h.rooms[0]!.id, tenant_id: stay.data.id, password: '593027' }, { token: h.token });
    const desk = await h.desk();
    const uid = randomBytes(4).toString('hex').toUpperCase();
    const write = await reserveCard(desk, { uid, kind: 'room', stayId: stay.data.id });
    const card = await confirmCard(desk, { issueId: write.issue.id, uid, blocks: write.blocks });

    const renewed = await c.call<{
      added_price: number;
      replaced_passwords: number;
      extended_credentials: number;
      rewrite_cards: { id: number; card_num: string }[];
    }>('room/setRenew', { stay_id: stay.data.id, check_out_time: at(2, '12:00:00') }, { token: h.token });
    expect(renewed).toMatchObject({
      errno: 0,
      data: { added_price: 200, replaced_passwords: 0, extended_credentials: 1, rewrite_cards: [{ id: card.id, card_num: card.cardNumber }] },
    });
    // The card list says it too (needs_rewrite).
    const cards = await c.call<{ list: { id: number; needs_rewrite: number }[] }>(
      'lock/noteCardList',
      { room_id: h.rooms[0]!.id, scope: 'all', limit: 100 },
      { token: h.token },
    );
    expect(cards.data.list.find((x) => x.id === card.id)).toMatchObject({ needs_rewrite: 1 });
  });
});
