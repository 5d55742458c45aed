import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDomainEvent } from '@console/shared';
import type { Actor } from '../../context';
import { eventChannel, recordEvent, writeRecorded, type CommittedEvent } from '../../db/events';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { createHotel, createRooms } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { eventFeed, GATHER_MS } from './event-feed';

/**
 * The outbox and the feed in one process (decision 035): an event is published after its
 * transaction's commit and never for a rolled-back one; a subscriber resuming from its last event
 * id also gets an event whose transaction took a smaller id but committed later.
 */

let ctx: TestContext;
let listener: Redis;
const published: CommittedEvent[] = [];
let hotelId: number;
let roomIds: number[];

beforeAll(async () => {
  ctx = await createTestContext();
  hotelId = (await createHotel(ctx.deps)).id;
  roomIds = (await createRooms(ctx.deps, hotelId, ['101', '102'])).rooms.map((r) => r.id);
  listener = ctx.deps.redis.duplicate();
  listener.on('message', (_channel: string, message: string) =>
    published.push(...(JSON.parse(message) as CommittedEvent[]).filter((e) => e.hotelId === hotelId)),
  );
  await listener.subscribe(eventChannel(ctx.deps));
});

afterAll(async () => {
  await listener?.quit();
  await ctx?.close();
});

/** Waits (up to 5 s) until `check` holds, looking again whenever the event loop turns. */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const actorOf = (hotel: number): Actor =>
  ({ hotelId: hotel, allRooms: true, membershipId: 0, sessionId: 0, accountId: 0, role: 'owner', permissions: new Set() }) as unknown as Actor;

describe('the outbox', () => {
  it('publishes an event after its commit, and neither writes nor publishes one of a rolled-back write', async () => {
    await expect(
      transaction(ctx.deps, async (tx) => {
        await recordEvent(tx, { hotelId, kind: 'payment.recorded', roomIds: [roomIds[0]], orderId: 999_001 });
        throw new AppError('CONFLICT');
      }),
    ).rejects.toThrow();
    await transaction(ctx.deps, (tx) => recordEvent(tx, { hotelId, kind: 'payment.recorded', roomIds: [roomIds[1]], orderId: 999_002 }));
    await until('the committed event', () => published.some((e) => e.ids.orderId === 999_002));
    expect(published.filter((e) => e.ids.orderId === 999_001)).toEqual([]);
    const rows = await ctx.deps.prisma.domainEvent.findMany({ where: { hotelId }, select: { ids: true, roomIds: true } });
    expect(rows).toEqual([{ ids: { orderId: 999_002 }, roomIds: [roomIds[1]] }]);
  });

  it('refuses an event outside transaction(), which would never be published', async () => {
    await expect(ctx.deps.prisma.$transaction((tx) => recordEvent(tx, { hotelId, kind: 'room.changed' }))).rejects.toThrow(/outside transaction/);
  });
});

describe('the feed of a hotel', () => {
  it('sends nothing of another hotel, live or resumed', async () => {
    const other = (await createHotel(ctx.deps)).id;
    const controller = new AbortController();
    const actor = actorOf(other);
    const received: TDomainEvent[] = [];
    const feed = (async () => {
      for await (const events of eventFeed(ctx.deps, actor, { lastEventId: '1', signal: controller.signal, reauthenticate: async () => actor }))
        received.push(...events);
    })();
    await transaction(ctx.deps, (tx) => recordEvent(tx, { hotelId, kind: 'room.changed', roomIds: [roomIds[0]] }));
    await transaction(ctx.deps, (tx) => recordEvent(tx, { hotelId: other, kind: 'room.changed' }));
    await until("the other hotel's own event", () => received.length > 0);
    controller.abort();
    await feed;
    expect(received.map((e) => e.kind)).toEqual(['room.changed']);
    expect(received[0]!.roomIds).toEqual([]);
  });
});

describe('resuming the feed', () => {
  it('sends an event whose transaction took a smaller id but committed after the last event received', async () => {
    const controller = new AbortController();
    const received: TDomainEvent[] = [];
    const actor = actorOf(hotelId);
    const read = async (feed: AsyncGenerator<TDomainEvent[]>) => {
      for await (const events of feed) received.push(...events);
    };
    const live = read(eventFeed(ctx.deps, actor, { signal: controller.signal, reauthenticate: async () => actor }));

    // A takes its id first and commits last; B commits in between.
    let releaseA!: () => void;
    const aMayCommit = new Promise<void>((resolve) => (releaseA = resolve));
    let aRecorded!: () => void;
    const aHasRecorded = new Promise<void>((resolve) => (aRecorded = resolve));
    const a = transaction(ctx.deps, async (tx) => {
      await recordEvent(tx, { hotelId, kind: 'stay.renewed', roomIds: [roomIds[0]], stayId: 1 });
      // Written now (transaction() writes what was recorded as the work ends): A's id is taken.
      await writeRecorded(tx);
      aRecorded();
      await aMayCommit;
    });
    await aHasRecorded;
    await transaction(ctx.deps, (tx) => recordEvent(tx, { hotelId, kind: 'stay.renewed', roomIds: [roomIds[1]], stayId: 2 }));
    await until('B on the live feed', () => received.some((e) => e.ids.stayId === 2));
    const lastEventId = received.find((e) => e.ids.stayId === 2)!.id;
    controller.abort();
    await live;

    releaseA();
    await a;
    const aRow = await ctx.deps.prisma.domainEvent.findFirstOrThrow({ where: { hotelId, ids: { equals: { stayId: 1 } } }, select: { id: true } });
    expect(aRow.id < BigInt(lastEventId)).toBe(true);

    const again = new AbortController();
    const resumed: TDomainEvent[] = [];
    const giveUp = setTimeout(() => again.abort(), 5_000);
    const feed = eventFeed(ctx.deps, actor, { lastEventId, signal: again.signal, reauthenticate: async () => actor });
    for await (const events of feed) {
      resumed.push(...events);
      if (events.some((e) => e.ids.stayId === 1)) again.abort();
    }
    clearTimeout(giveUp);
    expect(resumed.map((e) => e.ids.stayId)).toContain(1);
    expect(resumed.every((e) => e.id !== lastEventId)).toBe(true);
  });
});

describe('gathering (decision 043)', () => {
  it('hands a tab the events of a busy hotel at most once per GATHER_MS, each once and in the order published', async () => {
    const controller = new AbortController();
    const actor = actorOf(hotelId);
    const handed: { at: number; events: TDomainEvent[] }[] = [];
    const feed = (async () => {
      for await (const events of eventFeed(ctx.deps, actor, { signal: controller.signal, reauthenticate: async () => actor }))
        handed.push({ at: performance.now(), events });
    })();
    // Published as the servers' transactions publish them (db/transaction.ts), every 5 ms for 300 ms.
    const ids = Array.from({ length: 60 }, (_, i) => String(900_000 + i));
    for (const id of ids) {
      const event: CommittedEvent = { id, hotelId, kind: 'room.changed', roomIds: [roomIds[0]!], ids: {}, at: new Date().toISOString() };
      await ctx.deps.redis.publish(eventChannel(ctx.deps), JSON.stringify([event]));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ours = () => handed.flatMap((h) => h.events.map((e) => e.id)).filter((id) => ids.includes(id));
    await until('every event', () => ours().length >= ids.length);
    controller.abort();
    await feed;
    expect(ours()).toEqual(ids);
    // Events every 5 ms: gathered, none handed sooner than GATHER_MS after the one before (gather.test.ts: a lone event is not held).
    for (let i = 1; i < handed.length; i += 1) expect(handed[i]!.at - handed[i - 1]!.at).toBeGreaterThanOrEqual(GATHER_MS - 2);
  });
});
