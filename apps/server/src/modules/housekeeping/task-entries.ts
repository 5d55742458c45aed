import type { TDeliveryState } from '@console/shared';
import type { TPrisma } from '../../db/client';
import type { Tx } from '../../db/transaction';

/**
 * When each task's attendant first entered its room (issue 28 §2: "entered 10:02, done 10:31"): the
 * first opening of the room's lock by the code the rota gave the task's assignee for the task's
 * day (modules/housekeeping/attendant-access.ts), as the lock recorded it (UnlockRecord, decision
 * 012). That code opens only during the shift, so the opening is within it. Tasks of the hotel
 * only: another hotel's task ids find nothing. Tasks never entered are absent from the map.
 */
export async function enteredAtOfTasks(db: TPrisma | Tx, hotelId: number, taskIds: number[]): Promise<Map<number, Date>> {
  const ids = [...new Set(taskIds)].filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647);
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: number; enteredAt: Date }[]>`
    SELECT t."id", MIN(u."occurredAt") AS "enteredAt"
      FROM "HousekeepingTask" t
      JOIN "LockPassword" p ON p."hotelId" = t."hotelId" AND p."roomId" = t."roomId"
                           AND p."attendantId" = t."assigneeId" AND p."attendantDay" = t."day"
      JOIN "UnlockRecord" u ON u."hotelId" = t."hotelId" AND u."roomId" = t."roomId" AND u."doorLockId" IS NULL
                           AND u."credential" = 'password:' || p."id" AND u."success" AND u."event" = 'opened'
     WHERE t."hotelId" = ${hotelId} AND t."id" = ANY(${ids}::int[])
     GROUP BY t."id"`;
  return new Map(rows.map((r) => [r.id, r.enteredAt]));
}

/** Tasks (of the hotel) with their `enteredAt` filled in: one statement for them all. */
export async function withEnteredAt<T extends { id: number; enteredAt: string | null }>(db: TPrisma | Tx, hotelId: number, tasks: T[]): Promise<T[]> {
  const entered = await enteredAtOfTasks(
    db,
    hotelId,
    tasks.map((t) => t.id),
  );
  return tasks.map((t) => ({ ...t, enteredAt: entered.get(t.id)?.toISOString() ?? null }));
}

/** One of an attendant's codes of the day, as their phone shows it. */
export interface TAttendantKey {
  roomId: number;
  /** Null until the lock cloud made it (a generated code on a lock without a gateway). */
  code: string | null;
  deliveryState: TDeliveryState;
  lastError: string | null;
  validFrom: string;
  validUntil: string | null;
}

/**
 * The codes the rota gave an attendant for a hotel day (docs/housekeeping-keys.md), live ones only
 * (on their way, on the lock, or failed with the reason), by room: what their phone shows them.
 * Only ever asked for the signed-in attendant's own membership.
 */
export async function attendantKeysOf(db: TPrisma | Tx, hotelId: number, membershipId: number | null | undefined, day: string): Promise<TAttendantKey[]> {
  if (typeof membershipId !== 'number') return [];
  const rows = await db.lockPassword.findMany({
    where: {
      hotelId,
      attendantId: membershipId,
      attendantDay: new Date(`${day}T00:00:00.000Z`),
      deliveryState: { in: ['pending', 'on_lock', 'failed', 'unknown'] },
    },
    select: { roomId: true, code: true, deliveryState: true, lastError: true, validFrom: true, validUntil: true },
    orderBy: [{ roomId: 'asc' }, { id: 'asc' }],
  });
  return rows.map((r) => ({ ...r, validFrom: r.validFrom.toISOString(), validUntil: r.validUntil?.toISOString() ?? null }));
}
