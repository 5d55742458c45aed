import { AIR_PASSWORD_RULES, passwordValidity } from '@console/shared';
import type { ServiceContext } from '../../context';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { newPasswordValidity, PASSWORD_FOR_VALIDITY_SELECT } from '../credentials/revocation';

const HOUR_MS = 3_600_000;

/**
 * The first-use window (docs/access-rules.md): on a lock whose generated (offline) codes must be
 * used once within 24 hours of their start (`Lock.offlineFirstUse`: TTLock's, an igloohome lock's
 * through Seam), an unused one is suspended by the lock after that. A guest whose stay has not
 * begun at the door would then arrive to a dead code. So a generated code of a stay not yet arrived (reserved,
 * or begun by itself with no successful opening by any of its credentials), on its lock, whose start
 * is 24 hours or more ago, with no successful record by it, is replaced by a new generated code for
 * the rest of its validity (`newPasswordValidity`: the old one taken off as `replaced`); the guest
 * is told the new code once the lock cloud gave it (modules/messages/on-lock.ts: a new code is a new
 * message). Run by the stay sweep; `now` is the clock (tests choose it).
 */
export async function renewUnusedGeneratedCodes(ctx: ServiceContext, now = new Date(), scope: { hotelId?: number } = {}): Promise<number> {
  const { prisma } = ctx.deps;
  const windowMs = AIR_PASSWORD_RULES.firstUseWithinHours * HOUR_MS;
  const candidates = await prisma.lockPassword.findMany({
    where: {
      ...scope,
      kind: 'air',
      doorLockId: null,
      deliveryState: 'on_lock',
      revokeReason: null,
      validFrom: { lte: new Date(now.getTime() - windowMs) },
      // Less than an hour left: a new code would not be worth sending (generated codes are whole hours).
      OR: [{ validUntil: null }, { validUntil: { gt: new Date(now.getTime() + HOUR_MS) } }],
      stay: { status: { in: ['reserved', 'in_house'] } },
      room: { lock: { offlineFirstUse: true } },
    },
    select: { id: true, hotelId: true, roomId: true },
    orderBy: { id: 'asc' },
  });
  let renewed = 0;
  for (const c of candidates) {
    try {
      const done = await transaction(ctx.deps, async (tx) => {
        await lockRooms(tx, c.hotelId, [c.roomId]);
        const replaced = await renewOne(tx, ctx, c.id, now, windowMs);
        if (replaced) followCredentials(tx, ctx.deps, c.hotelId, { roomId: c.roomId });
        return replaced;
      });
      if (done) renewed += 1;
    } catch (error) {
      ctx.deps.log.error({ err: error, passwordId: c.id }, 'first-use window: could not replace a generated code');
    }
  }
  return renewed;
}

/** Under the room's lock: everything read again, then the code replaced and audited. */
async function renewOne(tx: Tx, ctx: ServiceContext, id: number, now: Date, windowMs: number): Promise<boolean> {
  const p = await tx.lockPassword.findFirst({
    where: {
      id,
      kind: 'air',
      deliveryState: 'on_lock',
      revokeReason: null,
      validFrom: { lte: new Date(now.getTime() - windowMs) },
      room: { lock: { offlineFirstUse: true } },
    },
    select: { ...PASSWORD_FOR_VALIDITY_SELECT, stay: { select: { id: true, status: true, hotel: { select: { timeZone: true } } } } },
  });
  if (!p?.stay || !['reserved', 'in_house'].includes(p.stay.status)) return false;
  // Used once (the lock's record came back): the lock keeps it for good.
  const used = await tx.unlockRecord.count({ where: { hotelId: p.hotelId, credential: `password:${p.id}`, success: true } });
  if (used) return false;
  // A stay in the house that has been opened by any of its credentials has arrived: its guest has a working key.
  if (p.stay.status === 'in_house' && (await openedByStay(tx, p.hotelId, p.stay.id))) return false;
  const validity = passwordValidity('air', now, p.validUntil, p.stay.hotel.timeZone);
  const result = await newPasswordValidity(tx, p, validity);
  if (result.outcome !== 'replaced') return false;
  await recordAudit(tx, ctx, {
    action: 'stay.accessRenewUnused',
    hotelId: p.hotelId,
    entityType: 'Stay',
    entityId: p.stay.id,
    before: { password: p.id, validFrom: p.validFrom.toISOString() },
    after: {
      password: result.replacement!,
      validFrom: validity.validFrom.toISOString(),
      validUntil: validity.validUntil?.toISOString() ?? null,
      reason: 'first_use_window',
    },
  });
  return true;
}

/** Whether any credential of the stay (its passwords, faces, cards) has opened a door: the lock records name them by tag. */
async function openedByStay(tx: Tx, hotelId: number, stayId: number): Promise<boolean> {
  // One after the other: a transaction is one connection.
  const passwords = await tx.lockPassword.findMany({ where: { hotelId, stayId }, select: { id: true } });
  const faces = await tx.faceAuthorization.findMany({ where: { hotelId, stayId }, select: { id: true } });
  const cards = await tx.cardIssue.findMany({ where: { hotelId, stayId }, select: { id: true } });
  const credentials = [...passwords.map((r) => `password:${r.id}`), ...faces.map((r) => `face:${r.id}`), ...cards.map((r) => `card:${r.id}`)];
  const opened = await tx.unlockRecord.count({ where: { hotelId, success: true, OR: [{ stayId }, { credential: { in: credentials } }] } });
  return opened > 0;
}
