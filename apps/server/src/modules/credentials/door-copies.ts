import type { Deps } from '../../context';
import { transaction, type Tx } from '../../db/transaction';
import { writeCardGrant, writePassword } from './credential-writer';
import { closeEndedCardIssues } from './revocation';
import { LIVE_DELIVERY_STATES, revoke, type TRevokeReason } from './delivery-states';

/**
 * A stay's passwords and faces on the shared doors its room is served by (docs/shared-doors.md):
 * each room credential of a stay (a password whose code is known, a face authorisation) has a copy
 * on every shared door serving its room, with the same code and validity, each copy a credential
 * of the delivery engine with its own delivery state (`doorLockId` names the door's lock,
 * `copyOfId` the room credential). The copies are derived: this reconciliation makes them agree
 * with the room credentials and with what each door serves, after every change that gives
 * credentials lock work (afterCredentialChange), after a generated code reached its room's lock,
 * and in the delivery sweep. A copy revoked by hand stays off. A stay's number cards have copies on
 * the doors too (reconcileNumberCards).
 */

/**
 * A live copy given its parent's new times: sent again (a new version) unless its delivery failed,
 * where the times wait for the retry by hand.
 */
function retimed(state: string, p: { validFrom: Date; validUntil: Date | null }) {
  if (state === 'failed') return { validFrom: p.validFrom, validUntil: p.validUntil };
  return { validFrom: p.validFrom, validUntil: p.validUntil, deliveryState: 'pending' as const, version: { increment: 1 }, attempts: 0, lastError: null };
}

export interface CopyScope {
  stayId?: number;
  roomId?: number | { in: number[] };
  guestId?: number;
  customerId?: number;
}

/** A copy taken off by hand is not put back. */
const BY_HAND: readonly string[] = ['manual', 'called_back'];

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** The shared doors (lock ids) serving each of these rooms. */
export async function doorsServingRooms(tx: Pick<Tx, '$queryRaw'>, hotelId: number, roomIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!roomIds.length) return out;
  const rows = await tx.$queryRaw<{ roomId: number; lockId: number }[]>`
    SELECT DISTINCT r."id" AS "roomId", s."lockId"
      FROM "Room" r
      JOIN "SharedDoorServe" s ON s."hotelId" = r."hotelId" AND (s."roomId" = r."id" OR s."groupId" = r."groupId")
      JOIN "Lock" l ON l."hotelId" = s."hotelId" AND l."id" = s."lockId" AND l."sharedKind" IS NOT NULL
     WHERE r."hotelId" = ${hotelId} AND r."id" = ANY(${roomIds}::int[])
     ORDER BY s."lockId"`;
  for (const r of rows) out.set(r.roomId, [...(out.get(r.roomId) ?? []), r.lockId]);
  return out;
}

/** Locks the door rows in id order: two reconciliations of one door queue (its live codes are unique). */
async function lockDoors(tx: Tx, hotelId: number, lockIds: number[]): Promise<void> {
  const ids = [...new Set(lockIds)].sort((a, b) => a - b);
  if (ids.length) await tx.$queryRaw`SELECT "id" FROM "Lock" WHERE "hotelId" = ${hotelId} AND "id" = ANY(${ids}::int[]) ORDER BY "id" FOR NO KEY UPDATE`;
}

/** Whether the hotel has anything to reconcile: a door serving something, or a live copy. */
async function hotelHasDoors(tx: Tx, hotelId: number): Promise<boolean> {
  const rows = await tx.$queryRaw<{ n: number }[]>`
    SELECT 1 AS "n" FROM "SharedDoorServe" WHERE "hotelId" = ${hotelId}
    UNION ALL SELECT 1 FROM "LockPassword" WHERE "hotelId" = ${hotelId} AND "doorLockId" IS NOT NULL AND "deliveryState" IN ('pending', 'on_lock', 'failed', 'unknown')
    UNION ALL SELECT 1 FROM "FaceAuthorization" WHERE "hotelId" = ${hotelId} AND "doorLockId" IS NOT NULL AND "deliveryState" IN ('pending', 'on_lock', 'failed', 'unknown')
    UNION ALL SELECT 1 FROM "CardGrant" WHERE "hotelId" = ${hotelId} AND "medium" = 'number' AND "doorLockId" IS NOT NULL AND "deliveryState" IN ('pending', 'on_lock', 'failed', 'unknown')
    LIMIT 1`;
  return rows.length > 0;
}

/**
 * Makes the shared-door copies of a hotel's stay credentials in a scope agree with their room
 * credentials and the doors serving their rooms, inside `tx`. Returns how many copies changed.
 */
export async function reconcileDoorCopies(tx: Tx, hotelId: number, scope: CopyScope = {}, now = new Date()): Promise<number> {
  if (!(await hotelHasDoors(tx, hotelId))) return 0;
  return (
    (await reconcilePasswords(tx, hotelId, scope, now)) +
    (await reconcileFaces(tx, hotelId, scope, now)) +
    (await reconcileNumberCards(tx, hotelId, scope, now))
  );
}

const isLive = (c: { deliveryState: string; validUntil: Date | null }, now: Date) =>
  (LIVE_DELIVERY_STATES as readonly string[]).includes(c.deliveryState) && (c.validUntil === null || c.validUntil.getTime() > now.getTime());

/** Why a copy comes off: its room credential's reason, else the door no longer serves the room. */
const reasonOf = (parent: { revokeReason: string | null; validUntil: Date | null } | undefined, now: Date): TRevokeReason =>
  (parent?.revokeReason as TRevokeReason | null) ?? (parent?.validUntil && parent.validUntil.getTime() <= now.getTime() ? 'expired' : 'door_unserved');

async function reconcilePasswords(tx: Tx, hotelId: number, scope: CopyScope, now: Date): Promise<number> {
  const live = { in: [...LIVE_DELIVERY_STATES] };
  // Room passwords of stays that are live, or still have a live copy.
  const parents = await tx.lockPassword.findMany({
    where: { hotelId, ...scope, doorLockId: null, stayId: { not: null }, OR: [{ deliveryState: live }, { copies: { some: { deliveryState: live } } }] },
    select: {
      id: true,
      roomId: true,
      stayId: true,
      guestId: true,
      customerId: true,
      accountId: true,
      holderName: true,
      code: true,
      validFrom: true,
      validUntil: true,
      deliveryState: true,
      revokeReason: true,
      copies: { select: { id: true, doorLockId: true, code: true, validFrom: true, validUntil: true, deliveryState: true, revokeReason: true } },
    },
    orderBy: { id: 'asc' },
  });
  if (!parents.length) return 0;
  const doors = await doorsServingRooms(tx, hotelId, [...new Set(parents.map((p) => p.roomId))]);
  await lockDoors(tx, hotelId, [...[...doors.values()].flat(), ...parents.flatMap((p) => p.copies.map((c) => c.doorLockId!))]);
  let changed = 0;
  for (const p of parents) {
    // A code is copied once it is known (a generated one: once the lock cloud made it).
    const wanted = isLive(p, now) && p.code ? (doors.get(p.roomId) ?? []) : [];
    for (const c of p.copies) {
      if (!(LIVE_DELIVERY_STATES as readonly string[]).includes(c.deliveryState)) continue;
      if (!wanted.includes(c.doorLockId!) || c.code !== p.code) {
        changed += (
          await tx.lockPassword.updateMany({
            where: { id: c.id, deliveryState: live },
            data: revoke(c.code !== p.code && wanted.includes(c.doorLockId!) ? 'replaced' : reasonOf(p, now)),
          })
        ).count;
      } else if (!sameTime(c.validFrom, p.validFrom) || !sameTime(c.validUntil, p.validUntil)) {
        changed += (await tx.lockPassword.updateMany({ where: { id: c.id, deliveryState: live }, data: retimed(c.deliveryState, p) })).count;
      }
    }
    for (const doorLockId of wanted) {
      const held = p.copies.some(
        (c) =>
          c.doorLockId === doorLockId &&
          c.code === p.code &&
          ((LIVE_DELIVERY_STATES as readonly string[]).includes(c.deliveryState) || BY_HAND.includes(c.revokeReason ?? '')),
      );
      if (held) continue;
      // The same code twice on one door cannot work: the writer records it failed, as the lock would answer.
      await writePassword(
        tx,
        {
          hotelId,
          roomId: p.roomId,
          stayId: p.stayId,
          guestId: p.guestId,
          customerId: p.customerId,
          accountId: p.accountId,
          kind: 'custom',
          holderName: p.holderName,
          code: p.code,
          validFrom: p.validFrom,
          validUntil: p.validUntil,
          doorLockId,
          copyOfId: p.id,
        },
        { onTaken: 'fail' },
      );
      changed += 1;
    }
  }
  return changed;
}

async function reconcileFaces(tx: Tx, hotelId: number, { guestId, customerId, ...scope }: CopyScope, now: Date): Promise<number> {
  const live = { in: [...LIVE_DELIVERY_STATES] };
  const face =
    guestId !== undefined || customerId !== undefined
      ? { face: { ...(guestId !== undefined ? { guestId } : {}), ...(customerId !== undefined ? { customerId } : {}) } }
      : {};
  const parents = await tx.faceAuthorization.findMany({
    where: {
      hotelId,
      ...scope,
      ...face,
      doorLockId: null,
      stayId: { not: null },
      OR: [{ deliveryState: live }, { copies: { some: { deliveryState: live } } }],
    },
    select: {
      id: true,
      faceId: true,
      roomId: true,
      stayId: true,
      note: true,
      validFrom: true,
      validUntil: true,
      deliveryState: true,
      revokeReason: true,
      copies: { select: { id: true, doorLockId: true, validFrom: true, validUntil: true, deliveryState: true, revokeReason: true } },
    },
    orderBy: { id: 'asc' },
  });
  if (!parents.length) return 0;
  const doors = await doorsServingRooms(tx, hotelId, [...new Set(parents.map((p) => p.roomId))]);
  await lockDoors(tx, hotelId, [...[...doors.values()].flat(), ...parents.flatMap((p) => p.copies.map((c) => c.doorLockId!))]);
  let changed = 0;
  for (const p of parents) {
    const wanted = isLive(p, now) ? (doors.get(p.roomId) ?? []) : [];
    for (const c of p.copies) {
      if (!(LIVE_DELIVERY_STATES as readonly string[]).includes(c.deliveryState)) continue;
      if (!wanted.includes(c.doorLockId!)) {
        changed += (await tx.faceAuthorization.updateMany({ where: { id: c.id, deliveryState: live }, data: revoke(reasonOf(p, now)) })).count;
      } else if (!sameTime(c.validFrom, p.validFrom) || !sameTime(c.validUntil, p.validUntil)) {
        changed += (await tx.faceAuthorization.updateMany({ where: { id: c.id, deliveryState: live }, data: retimed(c.deliveryState, p) })).count;
      }
    }
    for (const doorLockId of wanted) {
      const held = p.copies.some(
        (c) => c.doorLockId === doorLockId && ((LIVE_DELIVERY_STATES as readonly string[]).includes(c.deliveryState) || BY_HAND.includes(c.revokeReason ?? '')),
      );
      if (held) continue;
      // The face is on the door already (the same guest in two rooms served by it): once is enough.
      const there = await tx.faceAuthorization.findFirst({ where: { hotelId, faceId: p.faceId, doorLockId, deliveryState: live }, select: { id: true } });
      if (there) continue;
      await tx.faceAuthorization.create({
        data: {
          hotelId,
          faceId: p.faceId,
          roomId: p.roomId,
          stayId: p.stayId,
          note: p.note,
          validFrom: p.validFrom,
          validUntil: p.validUntil,
          doorLockId,
          copyOfId: p.id,
        },
      });
      changed += 1;
    }
  }
  return changed;
}

/**
 * A stay's number cards (a card sent by its number, by the desk or by the access rule): the room's
 * grant (`doorLockId` null) has a copy on every door serving its room, a grant of the same writing
 * (`issueId`) and room with `doorLockId` the door, pushed to the door's lock by the card's number
 * with the same validity. A data card's grants on doors (`medium` data) are made when the card is
 * written and are not touched here. Copies of one writing on one door are one (the card is added
 * to a lock once).
 */
async function reconcileNumberCards(tx: Tx, hotelId: number, scope: CopyScope, now: Date): Promise<number> {
  const live = { in: [...LIVE_DELIVERY_STATES] };
  const stayGrant = { hotelId, ...scope, medium: 'number' as const, stayId: scope.stayId ?? { not: null }, issueId: { not: null } };
  // The writings with a live copy in the scope: their room grants are looked at even when no longer live.
  const liveCopies = await tx.cardGrant.findMany({ where: { ...stayGrant, doorLockId: { not: null }, deliveryState: live }, select: { issueId: true } });
  const parents = await tx.cardGrant.findMany({
    where: { ...stayGrant, doorLockId: null, roomId: { not: null }, OR: [{ deliveryState: live }, { issueId: { in: liveCopies.map((c) => c.issueId!) } }] },
    select: {
      id: true,
      cardId: true,
      issueId: true,
      roomId: true,
      stayId: true,
      guestId: true,
      customerId: true,
      validFrom: true,
      validUntil: true,
      deliveryState: true,
      revokeReason: true,
    },
    orderBy: { id: 'asc' },
  });
  if (!parents.length) return 0;
  const copies = await tx.cardGrant.findMany({
    where: { hotelId, medium: 'number', doorLockId: { not: null }, issueId: { in: [...new Set(parents.map((p) => p.issueId!))] } },
    select: { id: true, issueId: true, roomId: true, doorLockId: true, validFrom: true, validUntil: true, deliveryState: true, revokeReason: true },
    orderBy: { id: 'asc' },
  });
  const doors = await doorsServingRooms(tx, hotelId, [...new Set(parents.map((p) => p.roomId!))]);
  await lockDoors(tx, hotelId, [...[...doors.values()].flat(), ...copies.map((c) => c.doorLockId!)]);
  const isLiveState = (state: string) => (LIVE_DELIVERY_STATES as readonly string[]).includes(state);
  let changed = 0;
  let ended: TRevokeReason | null = null;
  for (const p of parents) {
    const wanted = isLive(p, now) ? (doors.get(p.roomId!) ?? []) : [];
    const mine = copies.filter((c) => c.issueId === p.issueId && c.roomId === p.roomId);
    for (const c of mine) {
      if (!isLiveState(c.deliveryState)) continue;
      if (!wanted.includes(c.doorLockId!)) {
        const reason = reasonOf(p, now);
        const n = (await tx.cardGrant.updateMany({ where: { id: c.id, deliveryState: live }, data: revoke(reason) })).count;
        changed += n;
        if (n) c.deliveryState = 'removing';
        if (n && !isLive(p, now)) ended = reason;
      } else if (!sameTime(c.validFrom, p.validFrom) || !sameTime(c.validUntil, p.validUntil)) {
        changed += (await tx.cardGrant.updateMany({ where: { id: c.id, deliveryState: live }, data: retimed(c.deliveryState, p) })).count;
      }
    }
    for (const doorLockId of wanted) {
      const held = copies.some(
        (c) => c.issueId === p.issueId && c.doorLockId === doorLockId && (isLiveState(c.deliveryState) || BY_HAND.includes(c.revokeReason ?? '')),
      );
      if (held) continue;
      // Read again under the door's row lock: a reconciliation that ran meanwhile may have made it.
      const there = await tx.cardGrant.findFirst({
        where: { hotelId, medium: 'number', issueId: p.issueId, doorLockId, deliveryState: live },
        select: { id: true },
      });
      if (there) continue;
      const created = await writeCardGrant(
        tx,
        {
          hotelId,
          cardId: p.cardId,
          issueId: p.issueId,
          medium: 'number',
          roomId: p.roomId,
          stayId: p.stayId,
          guestId: p.guestId,
          customerId: p.customerId,
          validFrom: p.validFrom,
          validUntil: p.validUntil,
          doorLockId,
        },
        { id: true, issueId: true, roomId: true, doorLockId: true, validFrom: true, validUntil: true, deliveryState: true, revokeReason: true },
      );
      copies.push(created);
      changed += 1;
    }
  }
  // A writing whose room grant ended and whose last copy came off now has ended too.
  if (ended) await closeEndedCardIssues(tx, hotelId, ended);
  return changed;
}

/** Reconciles in a transaction of its own (after a committed change, in the sweep). */
export async function reconcileDoorCopiesNow(
  deps: Pick<Deps, 'prisma' | 'config' | 'log' | 'redis' | 'key'>,
  hotelId: number,
  scope: CopyScope = {},
): Promise<number> {
  return transaction(deps, (tx) => reconcileDoorCopies(tx, hotelId, scope));
}
