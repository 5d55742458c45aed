import { randomInt } from 'node:crypto';
import { codeProblem, lockCodePolicy, passwordValidity, randomCode, ZId, ZLocalDate } from '@console/shared';
import type { Deps, ServiceContext } from '../../context';
import { afterCommit, recordEvent } from '../../db/events';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import { customFor, writePassword } from '../credentials/credential-writer';
import { followCredentials } from '../credentials/delivery';
import { LIVE_DELIVERY_STATES, revoke } from '../credentials/delivery-states';
import { syncAttendantCards } from './attendant-card';
import { rotaOf } from './rota';

/**
 * Keys that follow the rota (issue 28 §2, docs/housekeeping-keys.md, decision 051): an attendant's
 * code is on the locks of the rooms of their tasks of a hotel day, valid for the hours of their
 * shift that day, and nowhere else. `syncAttendantAccess` makes what is issued (LockPassword rows
 * naming the attendant and the day) what the rota wants, in one transaction; the delivery engine
 * carries the rows to the locks after the commit (docs/credential-delivery.md), with its states,
 * retries and sweep. Called after the commit of every change of the rota (`noteRotaChange`), at the
 * end of each shift (a delayed job, jobs/rota-keys.job.ts) and by the rota's sweep.
 */

/** The code is six digits, like the desk's, the same on all the attendant's rooms where it can be. */
const ATTENDANT_CODE_LENGTH = 6;
/** States in which a custom code holds its digits on a lock (as the writer counts them). */
const CODE_HOLDING_STATES = ['pending', 'on_lock', 'unknown'] as const;

export interface AttendantAccessResult {
  /** Passwords written for rooms newly on the attendant's round. */
  issued: number;
  /** Passwords taken off (a room reassigned, the shift ended or removed). */
  withdrawn: number;
  /** Passwords whose validity was moved with the shift (a custom code changes in place on its lock). */
  changed: number;
}

/** A hotel day, `YYYY-MM-DD`, as the DATE column holds it. */
function dayDate(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/**
 * Reconciles one attendant's keys of one hotel day with the rota. Refuses a membership that is not
 * of the hotel (another hotel's id names nobody here). Rooms come from the hotel's own tasks, so a
 * room of another hotel is never reached.
 */
export async function syncAttendantAccess(
  ctx: ServiceContext,
  hotelId: number,
  membershipId: number,
  day: string,
  now = new Date(),
): Promise<AttendantAccessResult> {
  const { deps } = ctx;
  ZId.parse(hotelId);
  const member = ZId.safeParse(membershipId);
  const date = ZLocalDate.safeParse(day);
  if (!member.success) throw new AppError('VALIDATION', { messageKey: 'validation.idInvalid' });
  if (!date.success) throw new AppError('VALIDATION', { messageKey: 'validation.dateInvalid' });
  const result = await transaction(deps, (tx) => syncInTransaction(tx, ctx, hotelId, membershipId, day, now));
  if (result.shiftEndsAt && result.shiftEndsAt.getTime() > now.getTime()) {
    await scheduleShiftEnd(deps, hotelId, membershipId, day, result.shiftEndsAt).catch((error: unknown) =>
      deps.log.warn({ err: error, hotelId, membershipId, day }, 'could not schedule the end of a shift; the rota sweep will withdraw its keys'),
    );
  }
  return { issued: result.issued, withdrawn: result.withdrawn, changed: result.changed };
}

async function syncInTransaction(tx: Tx, ctx: ServiceContext, hotelId: number, membershipId: number, day: string, now: Date) {
  const { deps } = ctx;
  // Two syncs of one attendant wait for each other: the second sees what the first wrote.
  const members = await tx.$queryRaw<{ id: number; nickname: string; mobile: string | null; name: string }[]>`
    SELECT m."id", a."nickname", a."mobile", m."name"
      FROM "Membership" m JOIN "Account" a ON a."id" = m."accountId"
     WHERE m."hotelId" = ${hotelId} AND m."id" = ${membershipId}
       FOR NO KEY UPDATE OF m`;
  const member = members[0];
  const attendantDay = dayDate(day);
  const liveRows = await tx.lockPassword.findMany({
    where: { hotelId, attendantId: membershipId, attendantDay, deliveryState: { in: [...LIVE_DELIVERY_STATES] } },
    select: { id: true, roomId: true, kind: true, code: true, validFrom: true, validUntil: true, providerRef: true, deliveryState: true },
    orderBy: { id: 'asc' },
  });
  // A membership of another hotel (or none) is nobody's: refused, unless this hotel still holds
  // codes or cards of a member since removed, which are then withdrawn.
  const liveCards = member
    ? 0
    : await tx.cardIssue.count({ where: { hotelId, attendantId: membershipId, attendantDay, state: 'issued', validUntil: { gt: now } } });
  if (!member && liveRows.length === 0 && liveCards === 0) throw new AppError('NOT_FOUND');
  // The rota as housekeeping defines it (rota.ts): the attendant's cleaning rooms and shift that day.
  const rota = member ? (await rotaOf(tx, hotelId, day)).find((r) => r.membershipId === membershipId) : undefined;
  const shift = rota?.shift ?? null;
  const onShift = shift !== null && shift.endsAt.getTime() > now.getTime();
  const wantedRooms = new Set(onShift ? rota!.roomIds : []);
  const rooms = wantedRooms.size
    ? await tx.room.findMany({
        where: { hotelId, id: { in: [...wantedRooms] }, deletedAt: null },
        select: {
          id: true,
          lock: { select: { provider: true, gatewayId: true, isWifi: true, onlinePasscodes: true, offlinePasscodes: true, keypadWithoutZero: true } },
        },
      })
    : [];
  const roomById = new Map(rooms.map((r) => [r.id, r]));
  await lockRooms(tx, hotelId, [...new Set([...liveRows.map((r) => r.roomId), ...roomById.keys()])]);

  let withdrawn = 0;
  let changed = 0;
  const kept = new Map<number, (typeof liveRows)[number]>();
  for (const row of liveRows) {
    if (!onShift || !roomById.has(row.roomId) || kept.has(row.roomId)) {
      await tx.lockPassword.updateMany({ where: { id: row.id, hotelId }, data: revoke(onShift ? 'reassigned' : 'shift_ended') });
      withdrawn += 1;
      continue;
    }
    kept.set(row.roomId, row);
  }

  // The hours of the shift, as the lock applies them (a custom code to the minute; a generated one whole hours).
  let issued = 0;
  if (onShift && shift) {
    const timeZone = (await tx.hotel.findUniqueOrThrow({ where: { id: hotelId }, select: { timeZone: true } })).timeZone;
    for (const [roomId, row] of kept) {
      const validity = passwordValidity(row.kind, shift.startsAt, shift.endsAt, timeZone);
      if (row.validFrom.getTime() === validity.validFrom.getTime() && row.validUntil?.getTime() === validity.validUntil?.getTime()) continue;
      if (row.kind === 'custom') {
        // The shift moved: a custom code keeps its digits and changes its hours in place on the lock.
        await tx.lockPassword.updateMany({
          where: { id: row.id, hotelId },
          data: { ...validity, deliveryState: 'pending', version: { increment: 1 }, attempts: 0, lastError: null },
        });
        changed += 1;
      } else {
        // A generated code is never changed (TTLock -3008): replaced by one for the new hours.
        await tx.lockPassword.updateMany({ where: { id: row.id, hotelId }, data: revoke('replaced') });
        kept.delete(roomId);
        withdrawn += 1;
      }
    }
    const missing = [...roomById.values()].filter((r) => !kept.has(r.id));
    if (missing.length) {
      const holderName = member!.name || member!.nickname || member!.mobile || '';
      // The attendant's code of the day: one code for the whole round where the locks allow it.
      const taken = await tx.lockPassword.findMany({
        where: {
          hotelId,
          roomId: { in: missing.map((r) => r.id) },
          doorLockId: null,
          kind: 'custom',
          code: { not: null },
          deliveryState: { in: [...CODE_HOLDING_STATES] },
        },
        select: { roomId: true, code: true },
      });
      const takenByRoom = new Map<number, Set<string>>();
      for (const t of taken) takenByRoom.set(t.roomId, (takenByRoom.get(t.roomId) ?? new Set()).add(t.code!));
      const everyTaken = new Set(taken.map((t) => t.code!));
      let dayCode = [...kept.values()].find((r) => r.kind === 'custom' && r.code)?.code ?? null;
      // Without a 0 when one of the round's keypads has no 0 key (a Nuki Keypad): the same code fits them all.
      const withoutZero = missing.some((r) => r.lock?.keypadWithoutZero);
      for (const room of missing) {
        const lock = room.lock;
        const policy = lockCodePolicy(lock);
        // As a rule's `auto` code: chosen when the lock can take one now, else generated (never a kind it refuses).
        const custom = lock !== null && customFor({ codeType: 'auto' }, lock);
        let code: string | null = null;
        if (custom) {
          const roomTaken = takenByRoom.get(room.id) ?? new Set<string>();
          if (dayCode === null) dayCode = randomCode(ATTENDANT_CODE_LENGTH, everyTaken, randomInt, { ...policy, withoutZero });
          code = codeProblem(dayCode, roomTaken, policy) === null ? dayCode : randomCode(ATTENDANT_CODE_LENGTH, roomTaken, randomInt, policy);
        }
        const kind = custom ? ('custom' as const) : ('air' as const);
        const row = await writePassword(
          tx,
          {
            hotelId,
            roomId: room.id,
            kind,
            code,
            holderName,
            accountId: null,
            attendantId: membershipId,
            attendantDay,
            ...passwordValidity(kind, shift.startsAt, shift.endsAt, timeZone),
          },
          { onTaken: 'skip' },
        );
        if (row) issued += 1;
      }
    }
  }

  // Her cards (attendant-card.ts): a room taken from her refuses the card at its lock; the rest marks it to be written again.
  const cards = await syncAttendantCards(tx, hotelId, membershipId, day, member ? { shift, roomIds: [...roomById.keys()] } : null, now);
  if (cards.changed > 0) {
    await recordEvent(tx, { hotelId, kind: 'credential.changed', roomIds: cards.roomIds, membershipId });
    await recordEvent(tx, { hotelId, kind: 'housekeeping.changed', roomIds: cards.roomIds, membershipId });
    await recordAudit(tx, ctx, {
      hotelId,
      action: 'housekeeping.keys',
      entityType: 'Membership',
      entityId: membershipId,
      after: { day, cards: cards.changed, cardRefusedAt: [...cards.roomIds].sort((a, b) => a - b) },
    });
    if (cards.roomIds.length > 0) followCredentials(tx, deps, hotelId, {});
  }

  if (issued + withdrawn + changed > 0) {
    const roomIds = [...new Set([...liveRows.map((r) => r.roomId), ...roomById.keys()])];
    await recordEvent(tx, { hotelId, kind: 'credential.changed', roomIds, membershipId });
    await recordAudit(tx, ctx, {
      hotelId,
      action: 'housekeeping.keys',
      entityType: 'Membership',
      entityId: membershipId,
      after: { day, issued, withdrawn, changed, rooms: [...roomById.keys()].sort((a, b) => a - b) },
    });
    followCredentials(tx, deps, hotelId, {});
  }
  return { issued, withdrawn, changed, shiftEndsAt: onShift ? shift!.endsAt : null };
}

/**
 * Says, inside the transaction of a change of the rota of a hotel day (a room assigned or
 * reassigned, a failed inspection giving a room back, a shift set, moved or removed), whose keys
 * it touches: once committed, each of these attendants' keys is brought in line with it (never
 * for a rolled-back change; the same attendant twice in one change runs once). The one call
 * housekeeping's services make; the change records its own event (`housekeeping.changed`), and
 * the keys' own change records `credential.changed`.
 */
export function noteRotaChange(tx: Tx, ctx: ServiceContext, change: { hotelId: number; day: string; membershipIds: (number | null | undefined)[] }): void {
  const ids = [...new Set(change.membershipIds.filter((id): id is number => typeof id === 'number'))].sort((a, b) => a - b);
  for (const membershipId of ids) {
    afterCommit(tx, `rota-keys:${change.hotelId}:${membershipId}:${change.day}`, async () => {
      try {
        await syncAttendantAccess(ctx, change.hotelId, membershipId, change.day);
      } catch (error) {
        ctx.deps.log.warn(
          { err: error, hotelId: change.hotelId, membershipId, day: change.day },
          "could not bring an attendant's keys in line with the rota; the rota sweep will",
        );
      }
    });
  }
}

/** The job that withdraws a shift's keys as it ends (one per attendant, day and end: a moved end queues another). */
async function scheduleShiftEnd(deps: Deps, hotelId: number, membershipId: number, day: string, endsAt: Date): Promise<void> {
  await deps.queues.rotaKeys.add(
    'sync',
    { hotelId, membershipId, day },
    { jobId: `rota-${hotelId}-${membershipId}-${day}-${endsAt.getTime()}`, delay: Math.max(0, endsAt.getTime() - Date.now()) },
  );
}

/**
 * The rota's sweep: every attendant who holds live keys, or a card still valid, of a shift that
 * ended, was removed, or of a member since removed, and every attendant on shift now (catching up a sync that failed after
 * its commit). `hotelId` narrows it to one hotel (tests).
 */
export async function sweepAttendantAccess(ctx: ServiceContext, now = new Date(), scope: { hotelId?: number } = {}): Promise<number> {
  const { deps } = ctx;
  const hotel = scope.hotelId === undefined ? null : scope.hotelId;
  const due = await deps.prisma.$queryRaw<{ hotelId: number; membershipId: number; day: string }[]>`
    SELECT DISTINCT p."hotelId", p."attendantId" AS "membershipId", to_char(p."attendantDay", 'YYYY-MM-DD') AS "day"
      FROM "LockPassword" p
      LEFT JOIN "AttendantShift" s ON s."hotelId" = p."hotelId" AND s."membershipId" = p."attendantId" AND s."day" = p."attendantDay"
     WHERE p."attendantId" IS NOT NULL AND p."deliveryState" IN ('pending', 'on_lock', 'failed', 'unknown')
       AND (${hotel}::int IS NULL OR p."hotelId" = ${hotel}::int)
       AND (s."id" IS NULL OR s."endsAt" <= ${now})
    UNION
    SELECT DISTINCT c."hotelId", c."attendantId" AS "membershipId", to_char(c."attendantDay", 'YYYY-MM-DD') AS "day"
      FROM "CardIssue" c
      LEFT JOIN "AttendantShift" s ON s."hotelId" = c."hotelId" AND s."membershipId" = c."attendantId" AND s."day" = c."attendantDay"
     WHERE c."attendantId" IS NOT NULL AND c."state" = 'issued' AND c."validUntil" > ${now}
       AND (${hotel}::int IS NULL OR c."hotelId" = ${hotel}::int)
       AND (s."id" IS NULL OR s."endsAt" <= ${now})
    UNION
    SELECT DISTINCT s."hotelId", s."membershipId", to_char(s."day", 'YYYY-MM-DD') AS "day"
      FROM "AttendantShift" s
     WHERE s."startsAt" <= ${new Date(now.getTime() + 24 * 3_600_000)} AND s."endsAt" > ${now}
       AND (${hotel}::int IS NULL OR s."hotelId" = ${hotel}::int)`;
  let synced = 0;
  for (const d of due) {
    try {
      await syncAttendantAccess(ctx, d.hotelId, d.membershipId, d.day, now);
      synced += 1;
    } catch (error) {
      deps.log.warn({ err: error, ...d }, "could not bring an attendant's keys in line with the rota");
    }
  }
  return synced;
}
