/**
 * Every change leaves its audit entry (issue 19 §6) and says what it changed (issue 37 §3): each
 * tRPC mutation, sent by the hotel's owner with its valid example (test/examples.ts) on a world of
 * its own, either answers, writes at least one audit entry of the hotel and records at least one
 * domain event of it (docs/events.md: what open screens and webhooks hear of), or is listed below
 * with the reason it writes none. A new mutation that changes something and writes no entry or no
 * event fails this test. The JSON API's writes and the legacy actions call the same services
 * (their tables, http/api and legacy/manage/action-table.ts, name the service each calls).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../modules/auth/session.service';
import { appRouter } from '../trpc/router';
import { buildWorld, TRPC_EXAMPLES, type World } from './examples';
import { hours, insertStay } from './factories';
import { createTestContext, testMeta, type TestContext } from './harness';
import { trpcClient } from './trpc-client';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

const procedures = Object.entries((appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: 'query' | 'mutation' } }> } })._def.procedures);
const mutations = procedures.filter(([, p]) => p._def.type === 'mutation').map(([path]) => path);
const DISCOVER = process.env.AUDIT_DISCOVER === '1';

/** Mutations that change nothing of the hotel, so write no entry: why. */
const CHANGES_NOTHING = new Map<string, string>([
  ['auth.captcha', 'makes a picture for the sign-in form'],
  ['auth.sendResetCode', 'sends a code by SMS before anyone is signed in (rate-limited, not a change of the hotel)'],
  ['auth.switchHotel', "moves the caller's own session to another of its hotels"],
  ['dispenser.checkStatus', 'asks the dispenser how it is'],
  ['lock.markMessagesRead', "the reader's own mark on lock messages"],
]);

/**
 * Mutations that write their audit entry but change nothing another screen or an integrator
 * shows, so record no domain event: why.
 */
const NO_EVENT = new Map<string, string>([
  ['auth.logout', "ends the caller's own session"],
  ['account.revokeSession', "ends one of the caller's own sessions (its device signs in again)"],
  ['account.revokeOtherSessions', "ends the caller's own other sessions"],
  ['export.start', "makes a file for the caller; its progress is the caller's own query, followed while it runs"],
  ['guestMessage.sendAgain', "queues a message to the guest; the stay's message log follows it while it is on its way (features/stays/api.ts)"],
]);

/**
 * Mutations whose example of the bad-input test is refused on a fresh world (it names records the
 * world does not hold, or a lock cloud that is not there): their entries are checked by their own
 * module's tests, named here. Not a way out for a new mutation: each is listed with its test.
 */
const CHECKED_ELSEWHERE = new Map<string, string>([
  ['account.changeEmail', 'account/profile.integration.test.ts'],
  ['account.changeMobile', 'account/profile.integration.test.ts'],
  ['apiKey.create', 'api-keys/api-keys.integration.test.ts (owner with API keys turned on)'],
  ['apiKey.revoke', 'api-keys/api-keys.integration.test.ts'],
  ['auth.changePassword', 'auth/auth.integration.test.ts'],
  ['auth.login', 'auth/auth.integration.test.ts (needs the captcha answer)'],
  ['auth.resetPassword', 'auth/auth.integration.test.ts (needs the SMS code)'],
  ['card.confirm', 'cards/cards.integration.test.ts'],
  ['card.deleteKeySet', 'cards/cards.integration.test.ts'],
  ['card.encode', "cards/card-encode.integration.test.ts (a card system through Seam's fake)"],
  ['card.reportLost', 'cards/cards.integration.test.ts'],
  ['card.return', 'cards/cards.integration.test.ts'],
  ['card.revoke', 'cards/cards.integration.test.ts'],
  ['card.voidReservation', 'cards/cards.integration.test.ts'],
  ['face.authorize', 'credentials/face.integration.test.ts'],
  ['face.delete', 'credentials/face.integration.test.ts'],
  ['keyPage.open', 'key-page/key-page.integration.test.ts (needs a live link and a lock cloud)'],
  ['guestMessage.sendAgain', 'messages/messages.integration.test.ts (needs a code the lock confirmed)'],
  ['lock.deleteMessages', 'locks integration tests'],
  ['lock.removeUnmanaged', 'locks integration tests (a lock cloud)'],
  ['lock.unlock', 'locks integration tests (a lock cloud)'],
  ['lockAccount.connect', 'locks/accounts/lock-accounts.integration.test.ts (a lock cloud)'],
  ['lockAccount.connectSeam', "locks/accounts/seam-accounts.integration.test.ts (a lock cloud and Seam's fake)"],
  ['lockAccount.importLocks', 'locks/accounts/lock-accounts.integration.test.ts (a lock cloud)'],
  ['lockAccount.reconnect', 'locks/accounts/lock-accounts.integration.test.ts (a lock cloud)'],
  ['lockAccount.setSeamWebhook', "locks/accounts/seam-webhook.integration.test.ts (a Seam account: the world's is TTLock's)"],
  ['lockAccount.seamLink', "locks/accounts/seam-link.integration.test.ts (a Seam account: the world's is TTLock's)"],
  ['order.settle', 'orders/orders.integration.test.ts'],
  ['room.setLock', 'room/room.integration.test.ts'],
  ['roomGroup.delete', 'room-group tests (asks for a confirmation first)'],
  ['stay.checkIn', 'stays/stay.integration.test.ts'],
  ['stay.serveBreakfast', 'stays/stay.integration.test.ts'],
]);

/** What makes an example change something on a fresh world (without it, it is a no-op and rightly writes nothing). */
const PREPARE: Record<string, (w: World) => Promise<Record<string, unknown> | void>> = {
  // An attendant's card is written for a shift (docs/housekeeping-keys.md "Cards"): hers, now.
  'housekeeping.reserveCard': async (w) =>
    void (await ctx.deps.prisma.attendantShift.create({
      data: {
        hotelId: w.hotel.id,
        membershipId: w.attendant.id,
        day: w.hkDay,
        startsAt: new Date(Date.now() - 3_600_000),
        endsAt: new Date(Date.now() + 3_600_000),
      },
    })),
  // A bill that is final: a guest gone, the bill settled (invoice.issue invoices final bills only).
  'invoice.issue': async (w) => {
    const stay = await insertStay(ctx.deps, {
      hotelId: w.hotel.id,
      roomId: w.rooms[0]!.id,
      checkInAt: hours(-30),
      expectedCheckOutAt: hours(-2),
      status: 'checked_out',
      guestName: 'Invoiced guest',
    });
    await ctx.deps.prisma.folio.create({ data: { hotelId: w.hotel.id, stayId: stay.id, currency: 'CNY', settledAt: new Date() } });
    return { stayId: stay.id, language: 'en', buyer: { name: 'Buyer' }, requestId: randomUUID() };
  },
  'reader.unbind': async (w) => void (await ctx.deps.prisma.cardReader.update({ where: { id: w.cardReader.id }, data: { boundAccountId: w.owner.id } })),
  'room.setStatusMany': async (w) => void (await ctx.deps.prisma.room.update({ where: { id: w.rooms[2]!.id }, data: { cleanStatus: 'dirty' } })),
  'order.postRoomCharge': async (w) => void (await ctx.deps.prisma.stay.update({ where: { id: w.orderStay.id }, data: { priceAmount: 12_345 } })),
  'lock.deleteManager': async (w) => ({
    id: (await ctx.deps.prisma.lockManager.create({ data: { hotelId: w.hotel.id, roomId: w.rooms[0]!.id, name: 'Audit manager' } })).id,
  }),
  'account.revokeSession': async (w) => ({
    sessionId: (await createSession(ctx.deps, { accountId: w.owner.id, hotelId: w.hotel.id, kind: 'web', meta: testMeta() })).sessionId,
  }),
  'room.create': async (w) => ({ name: `A-${randomUUID().slice(0, 6)}`, groupId: w.group.id }),
  'feed.confirmEmpty': async (w) => void (await ctx.deps.prisma.calendarFeed.update({ where: { id: w.feed.id }, data: { emptyPending: true } })),
  // A group's own rule to drop (without one, "reset" changes nothing).
  'housekeeping.step': async (w) => void (await ctx.deps.prisma.housekeepingTask.update({ where: { id: w.hkTask.id }, data: { status: 'todo' } })),
  'accessRule.reset': async (w) => void (await ctx.deps.prisma.accessRule.create({ data: { hotelId: w.hotel.id, groupId: w.group.id } })),
  // The day's tasks not made yet (else "make the day's tasks" changes nothing, and is only audited).
  // Today's, with a dirty room that has no task yet (else there is nothing to make: only audited).
  'housekeeping.generate': async (w) => {
    await ctx.deps.prisma.housekeepingTask.deleteMany({ where: { hotelId: w.hotel.id } });
    await ctx.deps.prisma.room.update({ where: { id: w.rooms[2]!.id }, data: { cleanStatus: 'dirty' } });
    return { day: w.hkDay.toISOString().slice(0, 10) };
  },
  // An arrival with a code the lock refused (else "fix now" finds nothing to fix, and is only audited).
  'stay.fixAccess': async (w) =>
    void (await ctx.deps.prisma.lockPassword.create({
      data: {
        hotelId: w.hotel.id,
        roomId: w.reservation.roomId,
        stayId: w.reservation.id,
        kind: 'custom',
        holderName: 'Arrival',
        code: '615204',
        validFrom: w.reservation.checkInAt,
        validUntil: w.reservation.expectedCheckOutAt,
        deliveryState: 'failed',
        lastError: 'lock_offline',
      },
    })),
};

it('lists only mutations that exist', () => {
  expect([...CHANGES_NOTHING.keys(), ...NO_EVENT.keys(), ...CHECKED_ELSEWHERE.keys(), ...Object.keys(PREPARE)].filter((p) => !mutations.includes(p))).toEqual(
    [],
  );
});

describe.each(mutations)('%s', (path) => {
  it('writes its audit entry', async () => {
    if (!DISCOVER && (CHANGES_NOTHING.has(path) || CHECKED_ELSEWHERE.has(path))) return;
    const world = await buildWorld(ctx);
    const input = (await PREPARE[path]?.(world)) ?? TRPC_EXAMPLES[path]?.(world);
    const before = await ctx.deps.prisma.auditLog.count({ where: { hotelId: world.hotel.id } });
    const eventsBefore = await ctx.deps.prisma.domainEvent.count({ where: { hotelId: world.hotel.id } });
    const res = await api.raw.mutation(path as 'room.create', input, { token: world.ownerToken });
    const after = await ctx.deps.prisma.auditLog.count({ where: { hotelId: world.hotel.id } });
    const events = (
      await ctx.deps.prisma.domainEvent.findMany({ where: { hotelId: world.hotel.id }, orderBy: { id: 'asc' }, skip: eventsBefore, select: { kind: true } })
    ).map((e) => e.kind);
    const actions = (
      await ctx.deps.prisma.auditLog.findMany({ where: { hotelId: world.hotel.id }, orderBy: { id: 'asc' }, skip: before, select: { action: true } })
    ).map((a) => a.action);
    if (DISCOVER) {
      console.warn(`AUDIT ${path} | ${res.status} ${res.error?.data.app?.code ?? ''} | ${after - before} ${actions.join(',')} | events ${events.join(',')}`);
      return;
    }
    expect(
      res.status,
      `${path}: the example is refused (${JSON.stringify(res.error?.data.app ?? res.error)}): give it a PREPARE, or name the test that checks its entry`,
    ).toBe(200);
    expect(after, `${path} changed something and wrote no audit entry`).toBeGreaterThan(before);
    if (!NO_EVENT.has(path)) expect(events, `${path} changed something and recorded no domain event (docs/events.md)`).not.toEqual([]);
  });
});
