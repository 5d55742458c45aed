import { passwordValidity } from '@console/shared';
import type { Tx } from '../../db/transaction';
import { writePassword } from './credential-writer';
import { LIVE_DELIVERY_STATES, revoke, type TRevokeReason } from './delivery-states';

/**
 * Queues every live credential of a stay (or of one guest) for removal from its lock (delivery
 * state `removing`, a new version the delivery jobs carry out once the transaction committed and
 * `kickDeliveries` ran; the delivery sweep catches up otherwise). Returns how many were queued.
 */
export async function revokeStayCredentials(tx: Tx, hotelId: number, where: { stayId?: number; guestId?: number }, reason: TRevokeReason): Promise<number> {
  const live = { hotelId, ...where, deliveryState: { in: [...LIVE_DELIVERY_STATES] } };
  const data = revoke(reason);
  // One after the other: a transaction is one connection.
  const cards = await tx.cardGrant.updateMany({ where: live, data });
  const passwords = await tx.lockPassword.updateMany({ where: live, data });
  // A face authorisation belongs to a stay, and to a guest through the face (Face.guestId).
  const faceWhere = {
    hotelId,
    deliveryState: { in: [...LIVE_DELIVERY_STATES] },
    ...(where.stayId !== undefined ? { stayId: where.stayId } : {}),
    ...(where.guestId !== undefined ? { face: { guestId: where.guestId } } : {}),
  };
  const faces = await tx.faceAuthorization.updateMany({ where: faceWhere, data });
  const fingerprints = await tx.fingerprint.updateMany({ where: live, data });
  // A card not yet written for the stay will not be; one written ends with it.
  await tx.cardIssue.updateMany({ where: { hotelId, ...where, state: 'reserved' }, data: { state: 'voided', endReason: reason, endedAt: new Date() } });
  await closeEndedCardIssues(tx, hotelId, reason);
  return cards.count + passwords.count + faces.count + fingerprints.count;
}

/**
 * Issued cards none of whose grants is live any more (every one of their locks was told to refuse
 * them) have ended: their writing says so, with the reason.
 */
export async function closeEndedCardIssues(tx: Tx, hotelId: number, reason: TRevokeReason): Promise<number> {
  const { count } = await tx.cardIssue.updateMany({
    where: { hotelId, state: 'issued', grants: { some: {}, none: { deliveryState: { in: [...LIVE_DELIVERY_STATES] } } } },
    data: { state: 'ended', endReason: reason, endedAt: new Date() },
  });
  return count;
}

/** A frozen customer's credentials stop: every live one linked to the customer is queued for removal. */
export async function revokeCustomerCredentials(tx: Tx, hotelId: number, customerId: number): Promise<number> {
  const live = { hotelId, customerId, deliveryState: { in: [...LIVE_DELIVERY_STATES] } };
  const data = revoke('customer_frozen');
  const cards = await tx.cardGrant.updateMany({ where: live, data });
  const passwords = await tx.lockPassword.updateMany({ where: live, data });
  const faces = await tx.faceAuthorization.updateMany({ where: { hotelId, deliveryState: { in: [...LIVE_DELIVERY_STATES] }, face: { customerId } }, data });
  await closeEndedCardIssues(tx, hotelId, 'customer_frozen');
  return cards.count + passwords.count + faces.count;
}

/** "Disable the old cards of this guest": the guest's live credentials of other stays, found by ID number or mobile. */
export async function revokeOldCardsOfGuests(
  tx: Tx,
  hotelId: number,
  stayId: number,
  guests: { idNumber: string | null; mobile: string | null }[],
): Promise<number> {
  const identities = guests.flatMap((g) => [...(g.idNumber ? [{ idNumber: g.idNumber }] : []), ...(g.mobile ? [{ mobile: g.mobile }] : [])]);
  if (!identities.length) return 0;
  const where = { hotelId, deliveryState: { in: [...LIVE_DELIVERY_STATES] }, stayId: { not: stayId }, guest: { OR: identities } };
  const data = revoke('old_cards_disabled');
  const cards = await tx.cardGrant.updateMany({ where, data });
  const passwords = await tx.lockPassword.updateMany({ where, data });
  const { guest, ...rest } = where;
  const faces = await tx.faceAuthorization.updateMany({ where: { ...rest, face: { guest } }, data });
  await closeEndedCardIssues(tx, hotelId, 'old_cards_disabled');
  return cards.count + passwords.count + faces.count;
}

export const PASSWORD_FOR_VALIDITY_SELECT = {
  id: true,
  hotelId: true,
  roomId: true,
  stayId: true,
  guestId: true,
  customerId: true,
  accountId: true,
  createdByAccountId: true,
  kind: true,
  holderName: true,
  validFrom: true,
  validUntil: true,
  deliveryState: true,
  providerRef: true,
} as const;

type PasswordForValidity = {
  id: number;
  hotelId: number;
  roomId: number;
  stayId: number | null;
  guestId: number | null;
  customerId: number | null;
  accountId: number | null;
  createdByAccountId: number | null;
  kind: 'air' | 'custom' | 'one_time';
  holderName: string;
  validFrom: Date;
  validUntil: Date | null;
  deliveryState: string;
  providerRef: string | null;
};

/**
 * A live password's new validity (a renewal, a limit): the one rule of docs/credential-delivery.md.
 * - A custom code keeps its code: its validity changes on the lock (a new version the engine
 *   carries with TTLock's keyboardPwd/change).
 * - A generated code is never changed (TTLock refuses to change one the guest has not used yet,
 *   -3008): one the lock does not hold yet just takes the new validity; one on its lock is
 *   replaced: taken off (`replaced`) and a new code issued for the new validity (`replacesId`), so
 *   the guest's code changes and the stay says so.
 * A failed delivery only gets the new validity, for its retry. Returns what happened; `replacement`
 * is the new password's id.
 */
export async function newPasswordValidity(
  tx: Tx,
  p: PasswordForValidity,
  validity: { validFrom: Date; validUntil: Date | null },
): Promise<{ outcome: 'changed' | 'replaced' | 'none'; replacement?: number }> {
  const live = { id: p.id, deliveryState: { in: [...LIVE_DELIVERY_STATES] } };
  const onLock = p.providerRef !== null && p.deliveryState !== 'failed';
  if (p.kind === 'custom' || !onLock) {
    const data =
      p.deliveryState === 'failed'
        ? { ...validity }
        : { ...validity, deliveryState: 'pending' as const, version: { increment: 1 }, attempts: 0, lastError: null };
    return { outcome: (await tx.lockPassword.updateMany({ where: live, data })).count ? 'changed' : 'none' };
  }
  const { count } = await tx.lockPassword.updateMany({ where: live, data: revoke('replaced') });
  if (!count) return { outcome: 'none' };
  const replacement = await writePassword(tx, {
    hotelId: p.hotelId,
    roomId: p.roomId,
    stayId: p.stayId,
    guestId: p.guestId,
    customerId: p.customerId,
    accountId: p.accountId,
    createdByAccountId: p.createdByAccountId,
    kind: p.kind,
    holderName: p.holderName,
    replacesId: p.id,
    ...validity,
  });
  return { outcome: 'replaced', replacement: replacement.id };
}

/**
 * A stay renewed from `oldEnd` to `newEnd`: its credentials that ran to the end of the stay run to
 * the new end (a new version the lock learns; a generated code on its lock is replaced by a new
 * one: newPasswordValidity). Credentials that ended earlier (a limit, a period chosen by hand) and
 * one-time passwords stay as they are. Returns how many changed, and how many generated codes were
 * replaced (the guest's code changes: the clerk is told).
 */
export async function extendStayCredentials(
  tx: Tx,
  hotelId: number,
  stayId: number,
  oldEnd: Date,
  newEnd: Date,
  timeZone: string,
): Promise<{ changed: number; replaced: number }> {
  let changed = 0;
  let replaced = 0;
  const passwords = await tx.lockPassword.findMany({
    where: { hotelId, stayId, revokeReason: null, deliveryState: { in: [...LIVE_DELIVERY_STATES] }, kind: { not: 'one_time' }, validUntil: { not: null } },
    select: PASSWORD_FOR_VALIDITY_SELECT,
    orderBy: { id: 'asc' },
  });
  for (const p of passwords) {
    // "To the end of the stay" as its lock applies it (a generated password ends on the hour).
    const stayEnd = passwordValidity(p.kind, p.validFrom, oldEnd, timeZone).validUntil!;
    if (p.validUntil!.getTime() < stayEnd.getTime()) continue;
    const validUntil = passwordValidity(p.kind, p.validFrom, newEnd, timeZone).validUntil!;
    if (validUntil.getTime() <= p.validUntil!.getTime()) continue;
    const r = await newPasswordValidity(tx, p, { validFrom: p.validFrom, validUntil });
    if (r.outcome === 'changed') changed += 1;
    if (r.outcome === 'replaced') replaced += 1;
  }
  const faces = await tx.faceAuthorization.findMany({
    where: { hotelId, stayId, revokeReason: null, deliveryState: { in: [...LIVE_DELIVERY_STATES] }, validUntil: { gte: oldEnd, lt: newEnd } },
    select: { id: true, deliveryState: true },
  });
  for (const f of faces) {
    const data =
      f.deliveryState === 'failed'
        ? { validUntil: newEnd }
        : { validUntil: newEnd, deliveryState: 'pending' as const, version: { increment: 1 }, attempts: 0, lastError: null };
    changed += (await tx.faceAuthorization.updateMany({ where: { id: f.id, deliveryState: { in: [...LIVE_DELIVERY_STATES] } }, data })).count;
  }
  // A card sent over the air runs to the new end on its lock; a card with its data written on it
  // cannot be changed from afar: it is written again at the desk (its writing says needsRewrite).
  const numberCards = await tx.cardGrant.findMany({
    where: { hotelId, stayId, medium: 'number', revokeReason: null, deliveryState: { in: [...LIVE_DELIVERY_STATES] }, validUntil: { gte: oldEnd, lt: newEnd } },
    select: { id: true, issueId: true, deliveryState: true },
  });
  for (const g of numberCards) {
    const data =
      g.deliveryState === 'failed'
        ? { validUntil: newEnd }
        : { validUntil: newEnd, deliveryState: 'pending' as const, version: { increment: 1 }, attempts: 0, lastError: null };
    changed += (await tx.cardGrant.updateMany({ where: { id: g.id, deliveryState: { in: [...LIVE_DELIVERY_STATES] } }, data })).count;
  }
  const issueIds = [...new Set(numberCards.map((g) => g.issueId).filter((id): id is number => id !== null))];
  if (issueIds.length) await tx.cardIssue.updateMany({ where: { id: { in: issueIds }, state: 'issued' }, data: { validUntil: newEnd } });
  return { changed: changed + replaced, replaced };
}
