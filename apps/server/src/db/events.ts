import type { TEventIds, TEventKind } from '@console/shared';
import type { Deps } from '../context';
import { Prisma } from '../generated/prisma/client';

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

/** An event recorded in a transaction and not written yet (`writeRecorded`). */
interface UnwrittenEvent {
  hotelId: number;
  kind: TEventKind;
  roomIds: number[];
  ids: TEventIds;
}

/** An audit row as `recordAudit` writes it (modules/audit/audit.service.ts). */
export type AuditRow = Omit<Prisma.AuditLogCreateManyInput, 'id' | 'before' | 'after' | 'actorNames' | 'targetNames'> & {
  before?: Prisma.InputJsonValue;
  after?: Prisma.InputJsonValue;
  actorNames?: Prisma.InputJsonValue;
  targetNames?: Prisma.InputJsonValue;
};

/** What an open transaction of `transaction()` gathers: its events, its audit rows, and the work to run once it committed. */
export interface TxFollowUps {
  /** Written, in the order recorded: published after the commit. */
  events: CommittedEvent[];
  /** Recorded and not written yet: `writeRecorded` writes them as the transaction's work ends. */
  unwritten: UnwrittenEvent[];
  audits: AuditRow[];
  /** By key: the same work asked twice in one transaction runs once. */
  afterCommit: Map<string, () => Promise<void>>;
  /** What this attempt holds already (a lock taken for the rest of the transaction), by key: `heldInTransaction`. */
  held: Set<string>;
}

export const newFollowUps = (): TxFollowUps => ({ events: [], unwritten: [], audits: [], afterCommit: new Map(), held: new Set() });

/**
 * Whether `tx`, a transaction of `transaction()`, has noted `key` already, and notes it: for what a
 * transaction needs to do once (a lock it then holds until it ends). Always false outside
 * `transaction()`.
 */
export function heldInTransaction(tx: Prisma.TransactionClient, key: string): boolean {
  const held = pending.get(tx)?.held;
  if (!held) return false;
  if (held.has(key)) return true;
  held.add(key);
  return false;
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
 * commit. `tx` must be a transaction of `transaction()` (db/transaction.ts). The row is written
 * with the transaction's other events and audit rows as its work ends (`writeRecorded`): one
 * statement for them all instead of one each.
 */
export async function recordEvent(tx: Prisma.TransactionClient, event: RecordedEvent): Promise<void> {
  const into = pending.get(tx)?.unwritten;
  if (!into) throw new Error(`recordEvent(${event.kind}) outside transaction(): its event would never be published`);
  const { hotelId, kind, roomIds: rooms = [], ...rest } = event;
  const roomIds = [...new Set(rooms.filter((id): id is number => typeof id === 'number'))].sort((a, b) => a - b);
  const ids = Object.fromEntries(Object.entries(rest).filter(([k, v]) => typeof v === 'number' || (k === 'credential' && typeof v === 'string'))) as TEventIds;
  into.push({ hotelId, kind, roomIds, ids });
}

/**
 * An audit row of a transaction of `transaction()`, written with its events as its work ends
 * (`writeRecorded`); false when `db` is no such transaction (the caller writes it at once).
 */
export function gatherAudit(db: unknown, row: AuditRow): boolean {
  const into = pending.get(db as Prisma.TransactionClient)?.audits;
  if (!into) return false;
  into.push(row);
  return true;
}

/** Rows of one multi-row INSERT of events (4 parameters each, far below PostgreSQL's 65,535). */
const EVENTS_PER_STATEMENT = 1_000;

/**
 * The INSERT of audit rows, one array a column (text as text, so it is written as a single row's
 * `create` writes it; `before` and `after` made acceptable JSON by `recordAudit`). Every column of
 * "AuditLog" but its id.
 */
function insertAudits(rows: AuditRow[]): Prisma.Sql {
  const column = <T>(f: (r: AuditRow) => T | null | undefined) => rows.map((r) => f(r) ?? null);
  const json = (v: Prisma.InputJsonValue | undefined) => (v === undefined ? null : JSON.stringify(v));
  return Prisma.sql`
    INSERT INTO "AuditLog" ("hotelId", "actorType", "actorAccountId", "actorApiKeyId", "action", "entityType", "entityId", "before", "after",
                            "ip", "userAgent", "requestId", "channel", "actorJob", "actorNames", "targetNames", "createdAt")
    SELECT * FROM unnest(${column((r) => r.hotelId)}::int[], ${column((r) => r.actorType)}::"ActorType"[], ${column((r) => r.actorAccountId)}::int[],
      ${column((r) => r.actorApiKeyId)}::int[], ${column((r) => r.action)}::text[], ${column((r) => r.entityType)}::text[],
      ${column((r) => r.entityId)}::text[], ${column((r) => json(r.before))}::jsonb[], ${column((r) => json(r.after))}::jsonb[],
      ${column((r) => r.ip)}::text[], ${column((r) => r.userAgent)}::text[], ${column((r) => r.requestId)}::text[],
      ${column((r) => r.channel)}::"AuditChannel"[], ${column((r) => r.actorJob)}::text[],
      ${column((r) => json(r.actorNames))}::jsonb[], ${column((r) => json(r.targetNames))}::jsonb[],
      ${column((r) => new Date(r.createdAt ?? Date.now()).toISOString())}::timestamptz[])`;
}

/**
 * Writes the audit rows and events recorded so far in `tx`, in the order recorded, in one
 * statement (the audit rows in a WITH of the events' INSERT): `transaction()` calls it once its
 * work is done, before the commit. An event's id is taken here (ids increase in the order events
 * are written, not committed: docs/events.md); its time is the transaction's start
 * (`CURRENT_TIMESTAMP`), whenever it is written.
 */
export async function writeRecorded(tx: Prisma.TransactionClient): Promise<void> {
  const into = pending.get(tx);
  if (!into) return;
  let audits = into.audits.splice(0);
  if (audits.length && !into.unwritten.length) await tx.$executeRaw(insertAudits(audits));
  while (into.unwritten.length) {
    const chunk = into.unwritten.splice(0, EVENTS_PER_STATEMENT);
    const values = chunk.map((e) => Prisma.sql`(${e.hotelId}, ${e.kind}, ${e.roomIds}::int[], ${JSON.stringify(e.ids)}::jsonb)`);
    const events = Prisma.sql`INSERT INTO "DomainEvent" ("hotelId", "kind", "roomIds", "ids") VALUES ${Prisma.join(values)} RETURNING "id", "createdAt"`;
    const written = await tx.$queryRaw<{ id: bigint; createdAt: Date }[]>(
      audits.length ? Prisma.sql`WITH "audit" AS (${insertAudits(audits)}) ${events}` : events,
    );
    audits = [];
    // Ids are taken in the order of the rows; sorted, they pair with the rows.
    written.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    chunk.forEach((e, i) => into.events.push({ id: String(written[i]!.id), ...e, at: written[i]!.createdAt.toISOString() }));
  }
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
