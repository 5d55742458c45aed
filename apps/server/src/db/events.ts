import type { TEventIds, TEventKind } from '@console/shared';
import type { Deps } from '../context';
import type { Prisma } from '../generated/prisma/client';

/** A domain event as written in the outbox and published after its transaction's commit. */
export interface CommittedEvent {
  id: string;
  hotelId: number;
  kind: TEventKind;
  roomIds: number[];
  ids: TEventIds;
  at: string;
}

/** The Redis channel every process of the install publishes its committed events on (decision 035). */
export function eventChannel(deps: Pick<Deps, 'key'>): string {
  return deps.key('events');
}

/** What an open transaction of `transaction()` gathers: its events, and the work to run once it committed. */
export interface TxFollowUps {
  events: CommittedEvent[];
  /** By key: the same work asked twice in one transaction runs once. */
  afterCommit: Map<string, () => Promise<void>>;
}

/** The gatherings of each open transaction of `transaction()`, by its transaction client. */
const pending = new WeakMap<Prisma.TransactionClient, TxFollowUps>();

/** Called by `transaction()` as an attempt begins: what `recordEvent` and `afterCommit` add in `tx` goes to `into`. */
export function collectEvents(tx: Prisma.TransactionClient, into: TxFollowUps): void {
  pending.set(tx, into);
}

/**
 * Work that follows a change once it is committed (credentials carried to the locks, docs/events.md
 * "After the commit"): `transaction()` runs it after the commit and after publishing the events,
 * before it returns, and never for a rolled-back attempt. Each is awaited in the order asked; one
 * that fails is logged, the change stays committed (the sweeps catch up). `tx` must be a
 * transaction of `transaction()`.
 */
export function afterCommit(tx: Prisma.TransactionClient, key: string, work: () => Promise<void>): void {
  const into = pending.get(tx);
  if (!into) throw new Error(`afterCommit(${key}) outside transaction(): it would never run`);
  if (!into.afterCommit.has(key)) into.afterCommit.set(key, work);
}

export type RecordedEvent = { hotelId: number; kind: TEventKind; roomIds?: (number | null | undefined)[] } & TEventIds;

/**
 * Records a domain event of a change in the change's own transaction (docs/events.md): the row is
 * in the outbox if and only if the change committed, and `transaction()` publishes it after the
 * commit. `tx` must be a transaction of `transaction()` (db/transaction.ts).
 */
export async function recordEvent(tx: Prisma.TransactionClient, event: RecordedEvent): Promise<void> {
  const into = pending.get(tx)?.events;
  if (!into) throw new Error(`recordEvent(${event.kind}) outside transaction(): its event would never be published`);
  const { hotelId, kind, roomIds: rooms = [], ...rest } = event;
  const roomIds = [...new Set(rooms.filter((id): id is number => typeof id === 'number'))].sort((a, b) => a - b);
  const ids = Object.fromEntries(Object.entries(rest).filter(([, v]) => typeof v === 'number')) as TEventIds;
  const [row] = await tx.$queryRaw<{ id: bigint; createdAt: Date }[]>`
    INSERT INTO "DomainEvent" ("hotelId", "kind", "roomIds", "ids")
    VALUES (${hotelId}, ${kind}, ${roomIds}::int[], ${JSON.stringify(ids)}::jsonb)
    RETURNING "id", "createdAt"`;
  into.push({ id: String(row!.id), hotelId, kind, roomIds, ids, at: row!.createdAt.toISOString() });
}

/**
 * Publishes a committed transaction's events to every process of the install. Never throws: the
 * change is committed whatever happens here, and a subscriber that missed the message reads the
 * event from the outbox when it resumes.
 */
export async function publishEvents(deps: Pick<Deps, 'redis' | 'key' | 'log'>, events: CommittedEvent[]): Promise<void> {
  try {
    await deps.redis.publish(eventChannel(deps), JSON.stringify(events));
  } catch (error) {
    deps.log.warn({ err: error, events: events.length }, 'could not publish domain events');
  }
}

/** How long the outbox keeps an event (docs/events.md): a tab away for longer reloads what it shows anyway. */
export const EVENT_RETENTION_DAYS = 14;

/** Deletes the events older than EVENT_RETENTION_DAYS (the stay sweep's, install-wide); answers how many. */
export async function pruneDomainEvents(deps: Pick<Deps, 'prisma'>, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);
  return deps.prisma.$executeRaw`DELETE FROM "DomainEvent" WHERE "createdAt" < ${before}`;
}
