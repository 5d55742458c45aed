import type { Prisma } from '../../generated/prisma/client';
import type { Tx } from '../../db/transaction';
import { ruleForRoom } from '../base/rule-lookup';
import { closeEndedCardIssues, revokeStayCredentials } from '../credentials/revocation';
import { LIVE_DELIVERY_STATES, revoke } from '../credentials/delivery-states';

/**
 * The access rule's margin after the check-out (docs/access-rules.md): a rule's credentials are
 * valid until the check-out plus `minutesAfterCheckOut`. A stay that ends by itself at its expected
 * check-out (expired, not checked out by the desk) keeps, until their end, the credentials the rule
 * gave that margin; the others come off at once, as before. Once their end has passed they are taken
 * off too (`removeLapsedCredentials`, by the stay's `lapse` job and by the sweep). A check-out at the
 * desk, a cancellation or a no-show takes everything off at once (revokeStayCredentials).
 */

/** A generated code ends on the hotel's hour (passwordValidity): its end may be up to an hour past the margin. */
const HOUR_MS = 3_600_000;

export async function revokeExpiredStayCredentials(
  tx: Tx,
  stay: { id: number; hotelId: number; roomId: number; accessIssuedAt: Date | null; expectedCheckOutAt: Date },
  now: Date,
): Promise<{ revoked: number; lapseAt: Date | null }> {
  if (!stay.accessIssuedAt) return { revoked: await revokeStayCredentials(tx, stay.hotelId, { stayId: stay.id }, 'expired'), lapseAt: null };
  const rule = await ruleForRoom(tx, stay.hotelId, stay.roomId);
  const marginEnd = new Date(stay.expectedCheckOutAt.getTime() + rule.minutesAfterCheckOut * 60_000 + (rule.minutesAfterCheckOut > 0 ? HOUR_MS : 0));
  // Kept: a credential whose end is still to come and within the rule's margin; every other comes off now.
  const off: Prisma.LockPasswordWhereInput = {
    hotelId: stay.hotelId,
    stayId: stay.id,
    deliveryState: { in: [...LIVE_DELIVERY_STATES] },
    OR: [{ validUntil: null }, { validUntil: { lte: now } }, { validUntil: { gt: marginEnd } }],
  };
  const data = revoke('expired');
  const passwords = await tx.lockPassword.updateMany({ where: off, data });
  const faces = await tx.faceAuthorization.updateMany({ where: off as Prisma.FaceAuthorizationWhereInput, data });
  const cards = await tx.cardGrant.updateMany({ where: off as Prisma.CardGrantWhereInput, data });
  const fingerprints = await tx.fingerprint.updateMany({ where: off as Prisma.FingerprintWhereInput, data });
  // A card not yet written for the stay will not be; one whose grants all came off has ended.
  await tx.cardIssue.updateMany({
    where: { hotelId: stay.hotelId, stayId: stay.id, state: 'reserved' },
    data: { state: 'voided', endReason: 'expired', endedAt: now },
  });
  await closeEndedCardIssues(tx, stay.hotelId, 'expired');
  const live = { hotelId: stay.hotelId, stayId: stay.id, deliveryState: { in: [...LIVE_DELIVERY_STATES] } };
  // One after the other: a transaction is one connection.
  const ends = [
    await tx.lockPassword.aggregate({ where: live, _max: { validUntil: true } }),
    await tx.faceAuthorization.aggregate({ where: live, _max: { validUntil: true } }),
    await tx.cardGrant.aggregate({ where: live, _max: { validUntil: true } }),
  ];
  const last = Math.max(0, ...ends.map((e) => e._max.validUntil?.getTime() ?? 0));
  return { revoked: passwords.count + faces.count + cards.count + fingerprints.count, lapseAt: last > 0 ? new Date(last) : null };
}

/**
 * Takes off the credentials of expired stays whose end has passed (the margin kept by
 * `revokeExpiredStayCredentials`): one stay (its `lapse` job) or every expired stay of the scope (the
 * sweep). Returns the hotels touched, for the delivery engine.
 */
export async function removeLapsedCredentials(tx: Tx, now: Date, where: { stayId?: number; hotelId?: number }): Promise<Set<number>> {
  const lapsed = {
    ...(where.hotelId !== undefined ? { hotelId: where.hotelId } : {}),
    ...(where.stayId !== undefined ? { stayId: where.stayId } : {}),
    stay: { status: 'expired' as const },
    deliveryState: { in: [...LIVE_DELIVERY_STATES] },
    validUntil: { lte: now },
  };
  const data = revoke('expired');
  const hotels = new Set<number>();
  // One after the other: a transaction is one connection.
  for (const rows of [
    await tx.lockPassword.updateManyAndReturn({ where: lapsed, data, select: { hotelId: true } }),
    await tx.faceAuthorization.updateManyAndReturn({ where: lapsed, data, select: { hotelId: true } }),
    await tx.cardGrant.updateManyAndReturn({ where: lapsed, data, select: { hotelId: true } }),
  ])
    for (const r of rows) hotels.add(r.hotelId);
  for (const hotelId of hotels) await closeEndedCardIssues(tx, hotelId, 'expired');
  return hotels;
}
