import type { Deps } from '../../context';
import { jobContext } from '../../context';
import { isConstraint } from '../../db/errors';
import { lockRooms, transaction } from '../../db/transaction';
import { recordAudit } from '../audit/audit.service';
import { followRoomCharge } from '../orders/room-charge';
import { followStayJobs } from '../stays/stay-schedule';
import { ruleForRoom } from '../base/rule-lookup';

/** A stored lock record, as auto check-in reads it. */
export interface DoorRecord {
  hotelId: number;
  roomId: number;
  /** `password:12`, `face:7`: the credential of ours the lock named. */
  credential: string | null;
  success: boolean;
  occurredAt: Date;
}

const KINDS = new Set(['password', 'face', 'card']);

/**
 * Auto check-in (issue 20 §2, docs/access-rules.md): the first successful opening of a room's lock
 * by a credential of a reservation marks that reservation arrived (in house from the opening),
 * audited `stay.arrivedAtDoor`, when the room's access rule turns it on. A record of another
 * stay's credential, a refusal, a stay no longer reserved, or a second record (the stay already
 * arrived) changes nothing. Never throws: the records are stored whatever happens here. Audited as
 * the lock cloud's callback when the records came by it (`byCallback`), else as the lock records' reading.
 */
export async function arriveAtDoor(deps: Deps, records: DoorRecord[], byCallback = false): Promise<number> {
  let arrived = 0;
  // Oldest first: the first opening is the arrival.
  for (const r of [...records].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime())) {
    if (!r.success || !r.credential) continue;
    const [kind, rawId] = r.credential.split(':');
    const id = Number(rawId);
    if (!KINDS.has(kind!) || !Number.isInteger(id)) continue;
    try {
      if (await arriveOne(deps, r, kind as 'password' | 'face' | 'card', id, byCallback)) arrived += 1;
    } catch (error) {
      deps.log.error({ err: error, credential: r.credential }, 'auto check-in failed');
    }
  }
  return arrived;
}

async function arriveOne(deps: Deps, r: DoorRecord, kind: 'password' | 'face' | 'card', id: number, byCallback: boolean): Promise<boolean> {
  const where = { id, hotelId: r.hotelId, roomId: r.roomId };
  // A card's tag names its writing (CardIssue): the guest's number card the rule sent, or one the desk issued.
  const owner =
    kind === 'password'
      ? await deps.prisma.lockPassword.findFirst({ where, select: { stayId: true } })
      : kind === 'face'
        ? await deps.prisma.faceAuthorization.findFirst({ where, select: { stayId: true } })
        : await deps.prisma.cardIssue.findFirst({ where, select: { stayId: true } });
  if (!owner?.stayId) return false;
  const stay = await deps.prisma.stay.findFirst({
    where: { id: owner.stayId, hotelId: r.hotelId, roomId: r.roomId, status: 'reserved' },
    select: { id: true, version: true, checkInAt: true, hotel: { select: { currency: true, timeZone: true } } },
  });
  if (!stay) return false;
  if (!(await ruleForRoom(deps.prisma, r.hotelId, r.roomId)).autoCheckIn) return false;
  const ctx = jobContext(deps, byCallback ? 'locks.callback' : 'locks.records', `door:${r.credential}`);
  try {
    const done = await transaction(deps, async (tx) => {
      await lockRooms(tx, r.hotelId, [r.roomId]);
      // In house from the opening when it came before the check-in time (the rule's margin), else from the check-in time.
      const checkInAt = r.occurredAt < stay.checkInAt ? r.occurredAt : stay.checkInAt;
      const [updated] = await tx.stay.updateManyAndReturn({
        where: { id: stay.id, version: stay.version, status: 'reserved' },
        data: { status: 'in_house', checkInAt, version: { increment: 1 } },
        select: {
          id: true,
          hotelId: true,
          roomId: true,
          version: true,
          status: true,
          checkInAt: true,
          expectedCheckOutAt: true,
          awaitsArrival: true,
          noShowAt: true,
          accessIssuedAt: true,
        },
      });
      if (!updated) return null;
      await followRoomCharge(tx, ctx, { hotelId: r.hotelId, currency: stay.hotel.currency.trim(), accountId: null }, stay.id);
      await recordAudit(tx, ctx, {
        action: 'stay.arrivedAtDoor',
        hotelId: r.hotelId,
        entityType: 'Stay',
        entityId: stay.id,
        before: { status: 'reserved', checkInAt: stay.checkInAt.toISOString() },
        after: { status: 'in_house', checkInAt: checkInAt.toISOString(), credential: r.credential, openedAt: r.occurredAt.toISOString() },
      });
      followStayJobs(tx, deps, updated, stay.hotel.timeZone);
      return updated;
    });
    return done !== null;
  } catch (error) {
    // An opening before the check-in time would overlap the room's previous stay: it stays reserved (it begins at its time).
    if (isConstraint(error, 'Stay_no_overlap')) return false;
    throw error;
  }
}
