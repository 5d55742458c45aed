import { ZSharedDoorLockInput, ZSharedDoorSetInput, ZStayIdInput, type TSharedDoorLockInput, type TSharedDoorSetInput } from '@console/shared';
import type { TSharedDoorDto, TStayDoorsDto } from '@console/shared/dto';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { queueKeySync } from '../cards/card-keys.service';
import { followCredentials } from '../credentials/delivery';
import { lockDisplayName } from '../base/lock-ref';
import { roomScope } from '../base/room-access';
import { findStay } from '../base/stay-dto';
import { LIVE_DELIVERY_STATES, revoke } from '../credentials/delivery-states';
import { doorsServingRooms } from '../credentials/door-copies';
import { recordEvent } from '../../db/events';

/**
 * Shared doors (issue 20 §5, docs/shared-doors.md): a lock of the hotel that is no room's door,
 * marked as an entrance, lift, gym, parking or other door, serving rooms and room groups. A stay's
 * passwords and faces are copied onto the doors serving its room (door-copies.ts); a change of what
 * a door serves applies to the live stays at once (the reconciliation after the change).
 */

/** A door's rooms as the actor sees them: a member limited to some rooms sees only those (and the groups). */
const doorSelect = (actor: AuthedContext['actor']) => ({
  id: true,
  name: true,
  alias: true,
  sharedKind: true,
  online: true,
  battery: true,
  goneAt: true,
  serves: {
    where: { OR: [{ roomId: null }, { room: roomScope(actor) }] },
    select: { room: { select: { id: true, name: true, deletedAt: true } }, group: { select: { id: true, name: true } } },
    orderBy: { id: 'asc' as const },
  },
});

type DoorRow = {
  id: number;
  name: string;
  alias: string;
  sharedKind: TSharedDoorDto['kind'] | null;
  online: boolean | null;
  battery: number | null;
  goneAt: Date | null;
  serves: { room: { id: number; name: string; deletedAt: Date | null } | null; group: { id: number; name: string } | null }[];
};

async function credentialCounts(ctx: AuthedContext, lockIds: number[]): Promise<Map<number, TSharedDoorDto['credentials']>> {
  const out = new Map<number, TSharedDoorDto['credentials']>();
  if (!lockIds.length) return out;
  const now = new Date();
  const where = {
    hotelId: ctx.actor.hotelId,
    doorLockId: { in: lockIds },
    deliveryState: { in: [...LIVE_DELIVERY_STATES] },
    OR: [{ validUntil: null }, { validUntil: { gt: now } }],
  };
  const [p, f, c] = await Promise.all([
    ctx.deps.prisma.lockPassword.groupBy({ by: ['doorLockId', 'deliveryState'], where, _count: { _all: true } }),
    ctx.deps.prisma.faceAuthorization.groupBy({ by: ['doorLockId', 'deliveryState'], where, _count: { _all: true } }),
    // A stay's number cards copied there (a data card's grant on a door is read offline, not pushed).
    ctx.deps.prisma.cardGrant.groupBy({ by: ['doorLockId', 'deliveryState'], where: { ...where, medium: 'number' }, _count: { _all: true } }),
  ]);
  for (const g of [...p, ...f, ...c]) {
    const c = out.get(g.doorLockId!) ?? { onLock: 0, pending: 0, failed: 0 };
    if (g.deliveryState === 'on_lock') c.onLock += g._count._all;
    else if (g.deliveryState === 'failed') c.failed += g._count._all;
    else c.pending += g._count._all;
    out.set(g.doorLockId!, c);
  }
  return out;
}

function toDto(d: DoorRow, counts: Map<number, TSharedDoorDto['credentials']>): TSharedDoorDto {
  return {
    lockId: d.id,
    name: lockDisplayName(d),
    kind: d.sharedKind!,
    online: d.online,
    battery: d.battery,
    gone: d.goneAt !== null,
    rooms: d.serves.flatMap((s) => (s.room && !s.room.deletedAt ? [{ id: s.room.id, name: s.room.name }] : [])),
    groups: d.serves.flatMap((s) => (s.group ? [s.group] : [])),
    credentials: counts.get(d.id) ?? { onLock: 0, pending: 0, failed: 0 },
  };
}

/** The hotel's shared doors, by kind and name. */
export async function listSharedDoors(ctx: AuthedContext): Promise<{ items: TSharedDoorDto[] }> {
  requirePermission(ctx.actor, 'room.read');
  const rows = await ctx.deps.prisma.lock.findMany({
    where: { hotelId: ctx.actor.hotelId, sharedKind: { not: null } },
    select: doorSelect(ctx.actor),
    orderBy: [{ sharedKind: 'asc' }, { alias: 'asc' }, { name: 'asc' }, { id: 'asc' }],
  });
  const counts = await credentialCounts(
    ctx,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => toDto(r, counts)) };
}

/** One shared door; NOT_FOUND for a lock of another hotel or one that is not a shared door. */
export async function getSharedDoor(ctx: AuthedContext, raw: TSharedDoorLockInput): Promise<TSharedDoorDto> {
  requirePermission(ctx.actor, 'room.read');
  const { lockId } = ZSharedDoorLockInput.parse(raw);
  const row = await ctx.deps.prisma.lock.findFirst({
    where: { id: lockId, hotelId: ctx.actor.hotelId, sharedKind: { not: null } },
    select: doorSelect(ctx.actor),
  });
  if (!row) throw new AppError('NOT_FOUND', { messageKey: 'sharedDoors.errors.notFound' });
  return toDto(row, await credentialCounts(ctx, [row.id]));
}

/** The lock row, locked for the change; NOT_FOUND for a lock of another hotel. */
async function lockForChange(tx: Tx, hotelId: number, lockId: number) {
  const rows = await tx.$queryRaw<{ id: number; sharedKind: string | null }[]>`
    SELECT "id", "sharedKind"::text AS "sharedKind" FROM "Lock" WHERE "hotelId" = ${hotelId} AND "id" = ${lockId} FOR NO KEY UPDATE`;
  if (!rows[0]) throw new AppError('NOT_FOUND', { messageKey: 'sharedDoors.errors.lockNotFound' });
  return rows[0];
}

/**
 * Room cards and a door whose serving changed (docs/shared-doors.md "Room cards"): the door learns
 * the hotel's card keys (if it has any yet: its first card makes them and sends them to every
 * lock), and the cards of rooms it no longer serves are denylisted on it (their grants on the door
 * are taken off, `door_unserved`). A card written before the door served its room does not name
 * it: it says it must be written again (`needsRewrite`); nothing can be added to a card from afar.
 */
async function doorCardsFollowServing(tx: Tx, hotelId: number, lockId: number): Promise<void> {
  if (await tx.cardEncryption.findFirst({ where: { hotelId, isActive: true }, select: { id: true } })) await queueKeySync(tx, hotelId, undefined, [lockId]);
  const live = await tx.cardGrant.findMany({
    where: { hotelId, doorLockId: lockId, deliveryState: { in: [...LIVE_DELIVERY_STATES] } },
    select: { id: true, roomId: true },
  });
  if (!live.length) return;
  const served = await doorsServingRooms(tx, hotelId, [...new Set(live.map((g) => g.roomId!))]);
  const unserved = live.filter((g) => !(served.get(g.roomId!) ?? []).includes(lockId)).map((g) => g.id);
  if (unserved.length)
    await tx.cardGrant.updateMany({ where: { id: { in: unserved }, deliveryState: { in: [...LIVE_DELIVERY_STATES] } }, data: revoke('door_unserved') });
}

/**
 * Makes a lock a shared door of a kind and sets what it serves (exactly the rooms and groups
 * given). A room's door cannot be a shared door (CONFLICT; the database's trigger says the same).
 * Rooms and groups of another hotel, or deleted rooms, are not found. The live stays of the rooms
 * it now serves get their codes and faces on it; those of rooms it no longer serves lose them.
 */
export async function setSharedDoor(ctx: AuthedContext, raw: TSharedDoorSetInput): Promise<TSharedDoorDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'lock.accounts', { wholeHotel: true });
  const input = ZSharedDoorSetInput.parse(raw);
  const roomIds = [...new Set(input.roomIds)].sort((a, b) => a - b);
  const groupIds = [...new Set(input.groupIds)].sort((a, b) => a - b);
  await transaction(deps, async (tx) => {
    const lock = await lockForChange(tx, actor.hotelId, input.lockId);
    const roomDoor = await tx.room.findFirst({ where: { hotelId: actor.hotelId, lockId: lock.id, deletedAt: null }, select: { name: true } });
    if (roomDoor) throw new AppError('CONFLICT', { messageKey: 'sharedDoors.errors.roomDoor', params: { room: roomDoor.name } });
    const rooms = await tx.room.findMany({ where: { hotelId: actor.hotelId, id: { in: roomIds }, deletedAt: null }, select: { id: true } });
    if (rooms.length !== roomIds.length)
      throw new AppError('NOT_FOUND', { messageKey: 'sharedDoors.errors.roomNotFound', fields: { roomIds: 'sharedDoors.errors.roomNotFound' } });
    const groups = await tx.roomGroup.findMany({ where: { hotelId: actor.hotelId, id: { in: groupIds } }, select: { id: true } });
    if (groups.length !== groupIds.length)
      throw new AppError('NOT_FOUND', { messageKey: 'sharedDoors.errors.groupNotFound', fields: { groupIds: 'sharedDoors.errors.groupNotFound' } });
    const before = await tx.sharedDoorServe.findMany({ where: { hotelId: actor.hotelId, lockId: lock.id }, select: { roomId: true, groupId: true } });
    await tx.lock.update({ where: { id: lock.id }, data: { sharedKind: input.kind } });
    await tx.sharedDoorServe.deleteMany({
      where: { hotelId: actor.hotelId, lockId: lock.id, OR: [{ roomId: { not: null, notIn: roomIds } }, { groupId: { not: null, notIn: groupIds } }] },
    });
    await tx.sharedDoorServe.createMany({
      data: [
        ...roomIds.map((roomId) => ({ hotelId: actor.hotelId, lockId: lock.id, roomId })),
        ...groupIds.map((groupId) => ({ hotelId: actor.hotelId, lockId: lock.id, groupId })),
      ],
      skipDuplicates: true,
    });
    await doorCardsFollowServing(tx, actor.hotelId, lock.id);
    // The live stays of the rooms served follow at once (door-copies.ts).
    followCredentials(tx, deps, actor.hotelId);
    const sorted = (ids: (number | null)[]) => ids.filter((id): id is number => id !== null).sort((a, b) => a - b);
    const was = { kind: lock.sharedKind, roomIds: sorted(before.map((b) => b.roomId)), groupIds: sorted(before.map((b) => b.groupId)) };
    const now = { kind: input.kind, roomIds, groupIds };
    // Asked twice, the second changes nothing and is not audited again.
    if (JSON.stringify(was) !== JSON.stringify(now)) {
      await recordAudit(tx, ctx, { action: 'sharedDoor.set', entityType: 'Lock', entityId: lock.id, before: was, after: now });
      await recordEvent(tx, { hotelId: actor.hotelId, kind: 'lock.changed', lockId: lock.id, roomIds: [...roomIds, ...was.roomIds] });
    }
  });
  return getSharedDoor(ctx, { lockId: input.lockId });
}

/** Makes a shared door a plain lock again: it serves nothing, and the stays' codes and faces come off it. */
export async function unsetSharedDoor(ctx: AuthedContext, raw: TSharedDoorLockInput): Promise<{ lockId: number; revoked: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'lock.accounts', { wholeHotel: true });
  const { lockId } = ZSharedDoorLockInput.parse(raw);
  const revoked = await transaction(deps, async (tx) => {
    const lock = await lockForChange(tx, actor.hotelId, lockId);
    if (lock.sharedKind === null) return 0;
    const served = await tx.sharedDoorServe.findMany({ where: { hotelId: actor.hotelId, lockId }, select: { roomId: true, groupId: true } });
    await tx.sharedDoorServe.deleteMany({ where: { hotelId: actor.hotelId, lockId } });
    await tx.lock.update({ where: { id: lockId }, data: { sharedKind: null } });
    const live = { hotelId: actor.hotelId, doorLockId: lockId, deliveryState: { in: [...LIVE_DELIVERY_STATES] } };
    const count =
      (await tx.lockPassword.updateMany({ where: live, data: revoke('door_unserved') })).count +
      (await tx.faceAuthorization.updateMany({ where: live, data: revoke('door_unserved') })).count +
      // Room cards naming the door are denylisted on it: they would open it offline otherwise.
      (await tx.cardGrant.updateMany({ where: live, data: revoke('door_unserved') })).count;
    if (count) followCredentials(tx, deps, actor.hotelId);
    await recordAudit(tx, ctx, {
      action: 'sharedDoor.unset',
      entityType: 'Lock',
      entityId: lockId,
      before: {
        kind: lock.sharedKind,
        roomIds: served.flatMap((s) => (s.roomId ? [s.roomId] : [])),
        groupIds: served.flatMap((s) => (s.groupId ? [s.groupId] : [])),
      },
      after: { revoked: count },
    });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'lock.changed', lockId, roomIds: served.map((r) => r.roomId) });
    return count;
  });
  return { lockId, revoked };
}

/** The shared doors a stay's room is served by, and the stay's codes, faces and number cards on each with their delivery state. */
export async function stayDoors(ctx: AuthedContext, raw: z.input<typeof ZStayIdInput>): Promise<TStayDoorsDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const { stayId } = ZStayIdInput.parse(raw);
  const stay = await findStay(ctx, stayId);
  const lockIds = (await doorsServingRooms(deps.prisma, actor.hotelId, [stay.roomId])).get(stay.roomId) ?? [];
  const where = { hotelId: actor.hotelId, stayId, doorLockId: { not: null }, room: roomScope(actor), deliveryState: { in: [...LIVE_DELIVERY_STATES] } };
  const select = { id: true, copyOfId: true, doorLockId: true, deliveryState: true, lastError: true, validUntil: true } as const;
  const [locks, passwords, faces, cardCopies, roomCards] = await Promise.all([
    deps.prisma.lock.findMany({
      where: { hotelId: actor.hotelId, id: { in: lockIds }, sharedKind: { not: null } },
      select: { id: true, name: true, alias: true, sharedKind: true },
    }),
    deps.prisma.lockPassword.findMany({ where, select, orderBy: { id: 'asc' } }),
    deps.prisma.faceAuthorization.findMany({ where, select, orderBy: { id: 'asc' } }),
    deps.prisma.cardGrant.findMany({
      where: { ...where, medium: 'number' },
      select: { id: true, issueId: true, roomId: true, doorLockId: true, deliveryState: true, lastError: true, validUntil: true },
      orderBy: { id: 'asc' },
    }),
    // The room grants the number cards' copies are of (the same writing and room, on the room's lock).
    deps.prisma.cardGrant.findMany({
      where: { hotelId: actor.hotelId, stayId, medium: 'number', doorLockId: null },
      select: { id: true, issueId: true, roomId: true },
      orderBy: { id: 'asc' },
    }),
  ]);
  const cards = cardCopies.map((c) => ({
    ...c,
    copyOfId: roomCards.find((r) => r.issueId === c.issueId && r.roomId === c.roomId)?.id ?? null,
  }));
  const credential = (kind: 'password' | 'face' | 'card') => (c: Omit<(typeof passwords)[number], 'copyOfId'> & { copyOfId: number | null }) => ({
    kind,
    id: c.id,
    copyOfId: c.copyOfId!,
    deliveryState: c.deliveryState,
    lastError: c.lastError,
    validUntil: c.validUntil?.toISOString() ?? null,
  });
  return {
    stayId,
    doors: locks.map((l) => ({
      lockId: l.id,
      name: lockDisplayName(l),
      kind: l.sharedKind!,
      credentials: [
        ...passwords.filter((p) => p.doorLockId === l.id).map(credential('password')),
        ...faces.filter((f) => f.doorLockId === l.id).map(credential('face')),
        ...cards.filter((c) => c.doorLockId === l.id).map(credential('card')),
      ],
    })),
  };
}
