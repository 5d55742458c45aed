import { EventEmitter } from 'node:events';
import type { TDomainEvent } from '@console/shared';
import type { Actor, Deps } from '../../context';
import { eventChannel, type CommittedEvent } from '../../db/events';

/**
 * The relay of one process (decision 035): one Redis connection subscribed to the install's event
 * channel, which every process's `transaction()` publishes its committed events on, fanned out to
 * the process's subscribers. Opened with the first subscriber, closed with the process's deps.
 */
interface Relay {
  emitter: EventEmitter;
  ready: Promise<void>;
  close(): Promise<void>;
}

const relays = new WeakMap<Deps, Relay>();

function relayOf(deps: Deps): Relay {
  const existing = relays.get(deps);
  if (existing) return existing;
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const connection = deps.redis.duplicate();
  connection.on('error', (error) => deps.log.warn({ err: error }, 'event relay: Redis connection error'));
  connection.on('message', (_channel: string, message: string) => {
    let events: CommittedEvent[];
    try {
      events = JSON.parse(message) as CommittedEvent[];
    } catch {
      return;
    }
    for (const event of events) emitter.emit('event', event);
  });
  const ready = connection.subscribe(eventChannel(deps)).then(() => undefined);
  ready.catch((error: unknown) => deps.log.warn({ err: error }, 'event relay: could not subscribe'));
  const relay: Relay = {
    emitter,
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
  relays.get(deps)?.emitter.emit('end');
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
  let roomIds = event.roomIds;
  if (rooms && roomIds.length > 0) {
    roomIds = roomIds.filter((id) => rooms.has(id));
    if (roomIds.length === 0) return null;
  }
  return { id: event.id, kind: event.kind, roomIds, ids: event.ids, at: event.at };
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
 * `lastEventId` first, then each committed event as any process of the install publishes it, until
 * the subscriber leaves (`signal`) or its session ends (`reauthenticate` throws).
 */
export async function* eventFeed(
  deps: Deps,
  actor: Actor,
  options: { lastEventId?: string | null; signal?: AbortSignal; reauthenticate: () => Promise<Actor> },
): AsyncGenerator<TDomainEvent> {
  const relay = relayOf(deps);
  const queue: CommittedEvent[] = [];
  let wake: (() => void) | null = null;
  const onEvent = (event: CommittedEvent) => {
    if (event.hotelId !== actor.hotelId) return;
    queue.push(event);
    wake?.();
  };
  let ended = ending.has(deps);
  const onAbort = () => {
    ended = true;
    wake?.();
  };
  relay.emitter.on('event', onEvent);
  relay.emitter.on('end', onAbort);
  options.signal?.addEventListener('abort', onAbort);
  if (options.signal?.aborted) ended = true;
  try {
    await relay.ready;
    let rooms = await visibleRooms(deps, actor);
    // Listening before reading what was missed: an event committed meanwhile is in one or both.
    const resumed = new Set<string>();
    if (options.lastEventId) {
      for (const event of await missedEvents(deps, actor.hotelId, options.lastEventId)) {
        resumed.add(event.id);
        const out = forMember(event, actor, rooms);
        if (out) yield out;
      }
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
      while (queue.length > 0) {
        const event = queue.shift()!;
        if (resumed.delete(event.id)) continue;
        const out = forMember(event, actor, rooms);
        if (out) yield out;
      }
    }
  } finally {
    relay.emitter.off('event', onEvent);
    relay.emitter.off('end', onAbort);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
