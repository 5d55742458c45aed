import type { TEventIds, TEventKind } from '@console/shared';
import type { Deps } from '../../context';
import { transaction } from '../../db/transaction';
import type { Prisma } from '../../generated/prisma/client';
import { PUBLIC_EVENT_OF, resourceOf, SENT_KINDS } from './event-map';
import { queueDeliveries } from './queue';

/** Events one pass of the dispatcher reads at most. */
const BATCH = 1_000;

interface OutboxRow {
  id: bigint;
  hotelId: number;
  kind: TEventKind;
  roomIds: number[];
  ids: TEventIds;
  createdAt: Date;
}

/**
 * Turns committed outbox events (docs/events.md) into deliveries, one per event and endpoint
 * subscribed to its public name, and queues them. Reads only what is committed (a transaction's
 * rows are invisible until then), past the cursor (`WebhookCursor`), and again the events of a
 * transaction's longest life before it: ids are taken as transactions write and they commit in
 * another order (decision 035), so an event with a smaller id may appear after the cursor passed
 * it. The unique (endpoint, event) makes a second read of an event a no-op. One dispatcher at a time
 * in the install (an advisory lock); answers the deliveries made.
 */
export async function dispatchWebhooks(deps: Deps, scope: WebhookScope = {}): Promise<number> {
  let made = 0;
  for (let pass = 0; pass < 20; pass++) {
    const { created, more } = await dispatchOnce(deps, scope);
    made += created.length;
    await queueDeliveries(deps, created);
    if (!more) break;
  }
  return made;
}

/** A dispatcher or sweep limited to one hotel (tests sharing a database: decision 048); none: the install. */
export interface WebhookScope {
  hotelId?: number;
}

async function dispatchOnce(deps: Deps, scope: WebhookScope): Promise<{ created: bigint[]; more: boolean }> {
  const cursorId = scope.hotelId ?? 0;
  const only = scope.hotelId ?? null;
  const windowMs = deps.config.db.transactions.timeoutMs + deps.config.db.transactions.maxWaitMs + 1_000;
  return transaction(deps, async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('webhook-dispatch'), ${cursorId})`;
    const [cursor] = await tx.$queryRaw<{ lastEventId: bigint; lastEventAt: Date }[]>`
      INSERT INTO "WebhookCursor" ("id", "lastEventId", "lastEventAt") VALUES (${cursorId}, 0, 'epoch')
      ON CONFLICT ("id") DO UPDATE SET "id" = EXCLUDED."id" RETURNING "lastEventId", "lastEventAt"`;
    const { lastEventId, lastEventAt } = cursor!;
    // Only hotels with an enabled endpoint, and only events written since it existed.
    const fresh = await tx.$queryRaw<OutboxRow[]>`
      SELECT e."id", e."hotelId", e."kind", e."roomIds", e."ids", e."createdAt"
        FROM "DomainEvent" e
       WHERE e."id" > ${lastEventId} AND e."kind" = ANY(${SENT_KINDS}::text[]) AND (${only}::int IS NULL OR e."hotelId" = ${only})
         AND EXISTS (SELECT 1 FROM "WebhookEndpoint" w WHERE w."hotelId" = e."hotelId" AND w."enabled" AND w."createdAt" <= e."createdAt")
       ORDER BY e."id" LIMIT ${BATCH}`;
    // Committed late: a smaller id than the cursor, begun within a transaction's longest life before it, not delivered yet.
    const late =
      lastEventId > 0n
        ? await tx.$queryRaw<OutboxRow[]>`
      SELECT e."id", e."hotelId", e."kind", e."roomIds", e."ids", e."createdAt"
        FROM "DomainEvent" e
       WHERE e."id" <= ${lastEventId} AND e."createdAt" >= ${lastEventAt}::timestamptz - ${windowMs} * interval '1 millisecond'
         AND e."kind" = ANY(${SENT_KINDS}::text[]) AND (${only}::int IS NULL OR e."hotelId" = ${only})
         AND EXISTS (SELECT 1 FROM "WebhookEndpoint" w WHERE w."hotelId" = e."hotelId" AND w."enabled" AND w."createdAt" <= e."createdAt")
         AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."eventId" = e."id")
       ORDER BY e."id" LIMIT ${BATCH}`
        : [];
    // The newest event of all kinds, so that the cursor moves on when none of them is sent.
    const [newest] = await tx.$queryRaw<{ id: bigint; createdAt: Date }[]>`
      SELECT "id", "createdAt" FROM "DomainEvent" WHERE "id" > ${lastEventId} AND (${only}::int IS NULL OR "hotelId" = ${only}) ORDER BY "id" DESC LIMIT 1`;
    const events = [...late, ...fresh];
    const created = events.length ? await insertDeliveries(tx, events) : [];
    const more = fresh.length === BATCH;
    const last = more ? fresh[fresh.length - 1]! : newest;
    if (last) await tx.$executeRaw`UPDATE "WebhookCursor" SET "lastEventId" = ${last.id}, "lastEventAt" = ${last.createdAt} WHERE "id" = ${cursorId}`;
    return { created, more };
  });
}

async function insertDeliveries(tx: Prisma.TransactionClient, events: OutboxRow[]): Promise<bigint[]> {
  const rows = events.flatMap((e) => {
    const kind = PUBLIC_EVENT_OF[e.kind];
    return kind ? [{ event: e, kind, resource: resourceOf(e.kind, e.ids) }] : [];
  });
  if (rows.length === 0) return [];
  const created = await tx.$queryRaw<{ id: bigint }[]>`
    INSERT INTO "WebhookDelivery" ("hotelId", "endpointId", "eventId", "messageId", "kind", "resource", "ids", "roomIds", "occurredAt", "nextAttemptAt")
    SELECT w."hotelId", w."id", r."eventId", 'msg_' || r."eventId", r."kind", r."resource", r."ids", r."roomIds"::int[], r."occurredAt", CURRENT_TIMESTAMP
      FROM unnest(${rows.map((r) => r.event.id)}::bigint[], ${rows.map((r) => r.event.hotelId)}::int[], ${rows.map((r) => r.kind)}::text[],
                  ${rows.map((r) => r.resource)}::text[], ${rows.map((r) => JSON.stringify(r.event.ids))}::jsonb[],
                  ${rows.map((r) => `{${r.event.roomIds.join(',')}}`)}::text[], ${rows.map((r) => r.event.createdAt)}::timestamptz[])
           AS r("eventId", "hotelId", "kind", "resource", "ids", "roomIds", "occurredAt")
      JOIN "WebhookEndpoint" w ON w."hotelId" = r."hotelId" AND w."enabled" AND r."kind" = ANY(w."events") AND w."createdAt" <= r."occurredAt"
     ORDER BY r."eventId", w."id"
    ON CONFLICT ("endpointId", "eventId") WHERE "eventId" IS NOT NULL DO NOTHING
    RETURNING "id"`;
  return created.map((c) => c.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Queues the pending deliveries whose attempt is overdue by a minute: a job lost between a commit
 * and its queueing (Redis away, a process killed), or an endpoint enabled again. Their job id is
 * the delivery's, so one still waiting in BullMQ is not queued twice.
 */
export async function sweepWebhookDeliveries(deps: Deps, scope: WebhookScope = {}, now = new Date()): Promise<number> {
  const due = await deps.prisma.webhookDelivery.findMany({
    where: {
      ...(scope.hotelId !== undefined ? { hotelId: scope.hotelId } : {}),
      status: 'pending',
      nextAttemptAt: { lt: new Date(now.getTime() - 60_000) },
      endpoint: { enabled: true },
    },
    select: { id: true },
    orderBy: { id: 'asc' },
    take: 5_000,
  });
  await queueDeliveries(
    deps,
    due.map((d) => d.id),
  );
  return due.length;
}
