import { z } from 'zod';
import type { TDomainEvent } from '@console/shared';
import type { Actor, Deps } from '../../context';
import { eventChannel, type CommittedEvent } from '../../db/events';
import { gatherer } from './gather';

/**
 * The relay of one process (decision 035): one Redis connection subscribed to the install's event
 * channel, which every process's `transaction()` publishes its committed events on, fanned out to
 * the process's feeds. Opened with the first feed, closed with the process's deps.
 *
 * Events are handed to the feeds in gatherings, not one at a time (decision 043): what arrives while
 * the last gathering is younger than `GATHER_MS` waits for the next, so a tab is written to at most
 * once per `GATHER_MS` however many changes the hotel makes, and an event after a quiet spell leaves
 * on the next turn of the event loop. Each gathering is split by hotel once, and each feed is handed
 * its hotel's part only.
 */
interface Relay {
  /** The feeds of each hotel: each called with its hotel's events of a gathering, in the order published. */
  feeds: Map<number, Set<(events: CommittedEvent[]) => void>>;
  /** Called when the process ends its feeds (`endEventFeeds`). */
  enders: Set<() => void>;
  ready: Promise<void>;
  close(): Promise<void>;
}

/** The least time between two gatherings handed to the feeds (decision 043). */
export const GATHER_MS = 50;

/**
 * The feed's server-sent events options, as tRPC's SSE producer sends them (trpc/init.ts) and as
 * http/event-stream.ts writes them: a ping after 20 quiet seconds keeps proxies and balancers from
 * closing the stream; a client that heard nothing for 45 s connects again.
 */
export const FEED_SSE = { ping: { enabled: true, intervalMs: 20_000 }, client: { reconnectAfterInactivityMs: 45_000 } } as const;

/** The feed's input: where a tab resumes (the id of the last event it received). */
export const feedInput = z
  .object({
    lastEventId: z
      .string()
      .regex(/^[0-9]{1,18}$/)
      .nullish(),
  })
  .optional();

const relays = new WeakMap<Deps, Relay>();

function relayOf(deps: Deps): Relay {
  const existing = relays.get(deps);
  if (existing) return existing;
  const feeds = new Map<number, Set<(events: CommittedEvent[]) => void>>();
  const gather = gatherer<CommittedEvent>(GATHER_MS, (gathered) => {
    const byHotel = new Map<number, CommittedEvent[]>();
    for (const event of gathered) {
      if (!feeds.has(event.hotelId)) continue;
      const list = byHotel.get(event.hotelId);
      if (list) list.push(event);
      else byHotel.set(event.hotelId, [event]);
    }
    for (const [hotelId, events] of byHotel) for (const feed of feeds.get(hotelId) ?? []) feed(events);
  });
  const connection = deps.redis.duplicate();
  connection.on('error', (error) => deps.log.warn({ err: error }, 'event relay: Redis connection error'));
  connection.on('message', (_channel: string, message: string) => {
    let events: CommittedEvent[];
    try {
      events = JSON.parse(message) as CommittedEvent[];
    } catch {
      return;
    }
    gather(events);
  });
  const ready = connection.subscribe(eventChannel(deps)).then(() => undefined);
  ready.catch((error: unknown) => deps.log.warn({ err: error }, 'event relay: could not subscribe'));
  const relay: Relay = {
    feeds,
    enders: new Set(),
    ready,
    async close() {
      relays.delete(deps);
      await connection.quit().catch(() => connection.disconnect());
    },
  };
  relays.set(deps, relay);
  return relay;
}

/** Processes whose HTTP server is closing: their feeds end, so that the server's close does not wait for them. */
const ending = new WeakSet<Deps>();

/** Ends every feed of this process (the HTTP server's close; the browsers reconnect to another server and resume). */
export function endEventFeeds(deps: Deps): void {
  ending.add(deps);
  for (const end of relays.get(deps)?.enders ?? []) end();
}

/** Closes this process's relay, if one was opened (closeDeps). */
export async function closeEventRelay(deps: Deps): Promise<void> {
  await relays.get(deps)?.close();
}

/** How often a subscriber's session and rooms are read again (a sign-out ends the feed; a change of rooms applies). */
const REAUTH_MS = 30_000;
/** The most events one resume reads; a subscriber further behind reloads what it shows anyway. */
const RESUME_LIMIT = 1_000;

/** The rooms a member limited to some rooms may see (null: every room of the hotel). */
async function visibleRooms(deps: Deps, actor: Actor): Promise<Set<number> | null> {
  if (actor.allRooms) return null;
  const rows = await deps.prisma.membershipRoom.findMany({ where: { membershipId: actor.membershipId }, select: { roomId: true } });
  return new Set(rows.map((r) => r.roomId));
}

/** What a member receives of an event: its hotel's, and for one limited to some rooms, of those rooms only (or of none). */
function forMember(event: CommittedEvent, actor: Actor, rooms: Set<number> | null): TDomainEvent | null {
  if (event.hotelId !== actor.hotelId) return null;
  if (!rooms || event.roomIds.length === 0) return whole(event);
  const roomIds = event.roomIds.filter((id) => rooms.has(id));
  if (roomIds.length === 0) return null;
  return { id: event.id, kind: event.kind, roomIds, ids: event.ids, at: event.at };
}

/** A gathering of one hotel's events as every member who sees the whole hotel receives it: one array per gathering per process. */
const wholeGatherings = new WeakMap<CommittedEvent[], TDomainEvent[]>();
function wholeGathering(events: CommittedEvent[]): TDomainEvent[] {
  let out = wholeGatherings.get(events);
  if (!out) wholeGatherings.set(events, (out = events.map(whole)));
  return out;
}

/** An event as every member who may see all of it receives it: made once per process, however many tabs it goes to. */
const wholes = new WeakMap<CommittedEvent, TDomainEvent>();
function whole(event: CommittedEvent): TDomainEvent {
  let out = wholes.get(event);
  if (!out) wholes.set(event, (out = { id: event.id, kind: event.kind, roomIds: event.roomIds, ids: event.ids, at: event.at }));
  return out;
}

/**
 * The events a resuming subscriber missed: those after `lastEventId`, and those before it that may
 * have committed after it (ids are taken when a transaction writes, and transactions commit in
 * another order): any begun at most a transaction's longest life before it. At least once: a
 * subscriber may see one of those twice (docs/events.md).
 */
async function missedEvents(deps: Deps, hotelId: number, lastEventId: string): Promise<CommittedEvent[]> {
  const windowMs = deps.config.db.transactions.timeoutMs + deps.config.db.transactions.maxWaitMs + 1_000;
  const rows = await deps.prisma.$queryRaw<{ id: bigint; hotelId: number; kind: string; roomIds: number[]; ids: unknown; createdAt: Date }[]>`
    SELECT e."id", e."hotelId", e."kind", e."roomIds", e."ids", e."createdAt" FROM "DomainEvent" e
    WHERE e."hotelId" = ${hotelId}
      AND (e."id" > ${BigInt(lastEventId)}
        OR (e."id" < ${BigInt(lastEventId)} AND e."createdAt" > (SELECT l."createdAt" FROM "DomainEvent" l WHERE l."id" = ${BigInt(lastEventId)}) - ${windowMs} * interval '1 millisecond'))
    ORDER BY e."id" LIMIT ${RESUME_LIMIT}`;
  return rows.map((r) => ({
    id: String(r.id),
    hotelId: r.hotelId,
    kind: r.kind as CommittedEvent['kind'],
    roomIds: r.roomIds,
    ids: r.ids as CommittedEvent['ids'],
    at: r.createdAt.toISOString(),
  }));
}

/**
 * The live feed of a signed-in member's hotel (tRPC `event.feed`): the events missed since
 * `lastEventId` first, then the committed events as any process of the install publishes them, in
 * gatherings (one array each, in the order published, never empty: decision 043), until the
 * subscriber leaves (`signal`) or its session ends (`reauthenticate` throws).
 */
export async function* eventFeed(
  deps: Deps,
  actor: Actor,
  options: { lastEventId?: string | null; signal?: AbortSignal; reauthenticate: () => Promise<Actor> },
): AsyncGenerator<TDomainEvent[]> {
  const relay = relayOf(deps);
  let queue: CommittedEvent[] = [];
  let wake: (() => void) | null = null;
  const onEvents = (events: CommittedEvent[]) => {
    if (queue.length === 0) queue = events;
    else queue = queue.concat(events);
    wake?.();
  };
  let ended = ending.has(deps);
  const onAbort = () => {
    ended = true;
    wake?.();
  };
  const hotelId = actor.hotelId;
  let hotelFeeds = relay.feeds.get(hotelId);
  if (!hotelFeeds) relay.feeds.set(hotelId, (hotelFeeds = new Set()));
  hotelFeeds.add(onEvents);
  relay.enders.add(onAbort);
  options.signal?.addEventListener('abort', onAbort);
  if (options.signal?.aborted) ended = true;
  try {
    await relay.ready;
    let rooms = await visibleRooms(deps, actor);
    // Listening before reading what was missed: an event committed meanwhile is in one or both.
    const resumed = new Set<string>();
    if (options.lastEventId) {
      const missed: TDomainEvent[] = [];
      for (const event of await missedEvents(deps, actor.hotelId, options.lastEventId)) {
        resumed.add(event.id);
        const out = forMember(event, actor, rooms);
        if (out) missed.push(out);
      }
      if (missed.length > 0) yield missed;
    }
    let checkedAt = Date.now();
    while (!ended) {
      if (queue.length === 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, REAUTH_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
      if (ended) return;
      if (Date.now() - checkedAt >= REAUTH_MS) {
        const again = await options.reauthenticate();
        if (again.hotelId !== actor.hotelId) return;
        actor = again;
        rooms = await visibleRooms(deps, actor);
        checkedAt = Date.now();
      }
      const events = queue;
      queue = [];
      // A member who sees the whole hotel gets the gathering every such tab of the process gets (one
      // array, written to bytes once: http/event-stream.ts); a member of some rooms, its own part.
      if (rooms === null && resumed.size === 0 && actor.hotelId === hotelId) {
        yield wholeGathering(events);
        continue;
      }
      const out: TDomainEvent[] = [];
      for (const event of events) {
        if (resumed.size > 0 && resumed.delete(event.id)) continue;
        const one = forMember(event, actor, rooms);
        if (one) out.push(one);
      }
      if (out.length > 0) yield out;
    }
  } finally {
    hotelFeeds.delete(onEvents);
    if (hotelFeeds.size === 0 && relay.feeds.get(hotelId) === hotelFeeds) relay.feeds.delete(hotelId);
    relay.enders.delete(onAbort);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
