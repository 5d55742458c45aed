import type { Tx } from '../../db/transaction';

/** Delivery states of a credential that is on a lock or on its way to it. */
export const LIVE_DELIVERY_STATES = ['pending', 'on_lock', 'failed'] as const;

/**
 * Queues every live credential of a stay (or of one guest) for removal from its lock (delivery
 * state `removing`, which the credential jobs carry out). Returns how many were queued.
 */
export async function revokeStayCredentials(tx: Tx, hotelId: number, where: { stayId?: number; guestId?: number }): Promise<number> {
  const live = { hotelId, ...where, deliveryState: { in: [...LIVE_DELIVERY_STATES] } };
  const data = { deliveryState: 'removing' as const };
  // One after the other: a transaction is one connection.
  const cards = await tx.cardGrant.updateMany({ where: live, data });
  const passwords = await tx.lockPassword.updateMany({ where: live, data });
  const faces = where.stayId !== undefined ? await tx.faceAuthorization.updateMany({ where: { hotelId, stayId: where.stayId, deliveryState: { in: [...LIVE_DELIVERY_STATES] } }, data }) : { count: 0 };
  const fingerprints = await tx.fingerprint.updateMany({ where: live, data });
  return cards.count + passwords.count + faces.count + fingerprints.count;
}

/** "Disable the old cards of this guest": the guest's live cards of other stays, found by ID number or mobile. */
export async function revokeOldCardsOfGuests(tx: Tx, hotelId: number, stayId: number, guests: { idNumber: string | null; mobile: string | null }[]): Promise<number> {
  const identities = guests.flatMap((g) => [...(g.idNumber ? [{ idNumber: g.idNumber }] : []), ...(g.mobile ? [{ mobile: g.mobile }] : [])]);
  if (!identities.length) return 0;
  const result = await tx.cardGrant.updateMany({
    where: { hotelId, deliveryState: { in: [...LIVE_DELIVERY_STATES] }, stayId: { not: stayId }, guest: { OR: identities } },
    data: { deliveryState: 'removing' },
  });
  return result.count;
}
