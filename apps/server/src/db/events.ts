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

/** The events each open transaction of `transaction()` records, by its transaction client. */
const pending = new WeakMap<Prisma.TransactionClient, CommittedEvent[]>();

/** Called by `transaction()` as an attempt begins: what `recordEvent` writes in `tx` goes to `into`. */
export function collectEvents(tx: Prisma.TransactionClient, into: CommittedEvent[]): void {
  pending.set(tx, into);
}

export type RecordedEvent = { hotelId: number; kind: TEventKind; roomIds?: (number | null | undefined)[] } & TEventIds;

/**
 * Records a domain event of a change in the change's own transaction (docs/events.md): the row is
 * in the outbox if and only if the change committed, and `transaction()` publishes it after the
 * commit. `tx` must be a transaction of `transaction()` (db/transaction.ts).
 */
export async function recordEvent(tx: Prisma.TransactionClient, event: RecordedEvent): Promise<void> {
  const into = pending.get(tx);
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
