import type { TEventIds } from '@console/shared';
import type { TPrisma } from '../../db/client';

/**
 * The `data` of a webhook: the event's ids and the resource's state as it is when the request is
 * made (read at every attempt: a receiver never gets a state older than the one before it), or
 * null when the resource is gone. Plain reads by id within the delivery's hotel.
 */
export async function resourceState(prisma: TPrisma, hotelId: number, kind: string, ids: TEventIds): Promise<Record<string, unknown> | null> {
  if (kind.startsWith('reservation.') || kind.startsWith('stay.')) {
    if (ids.stayId === undefined) return null;
    const stay = await prisma.stay.findFirst({
      where: { id: ids.stayId, hotelId },
      select: {
        id: true,
        roomId: true,
        status: true,
        checkInAt: true,
        expectedCheckOutAt: true,
        checkedOutAt: true,
        cancelReason: true,
        movedFromStayId: true,
        room: { select: { name: true } },
      },
    });
    if (!stay) return null;
    const { room, ...rest } = stay;
    return { stay: { ...rest, roomName: room.name } };
  }
  if (kind.startsWith('credential.')) {
    if (ids.credentialId === undefined) return null;
    const common = { deliveryState: true, lastError: true, validFrom: true, validUntil: true, deliveredAt: true, removedAt: true, revokeReason: true } as const;
    const where = { id: ids.credentialId, hotelId };
    const credential =
      ids.credential === 'card'
        ? await prisma.cardGrant.findFirst({ where, select: { id: true, roomId: true, stayId: true, doorLockId: true, ...common } })
        : ids.credential === 'face'
          ? await prisma.faceAuthorization.findFirst({ where, select: { id: true, roomId: true, stayId: true, doorLockId: true, ...common } })
          : ids.credential === 'card_keys'
            ? null
            : await prisma.lockPassword.findFirst({ where, select: { id: true, roomId: true, stayId: true, doorLockId: true, kind: true, ...common } });
    return credential ? { credential: { type: ids.credential ?? 'password', ...credential } } : null;
  }
  if (kind === 'door.opened') {
    if (ids.recordId === undefined) return null;
    const record = await prisma.unlockRecord.findFirst({
      where: { id: ids.recordId, hotelId },
      select: { id: true, roomId: true, stayId: true, doorLockId: true, occurredAt: true, style: true, success: true, operator: true, credential: true },
    });
    return record ? { unlock: record } : null;
  }
  if (kind.startsWith('lock.')) {
    if (ids.lockId === undefined) return null;
    const lock = await prisma.lock.findFirst({
      where: { id: ids.lockId, hotelId },
      select: { id: true, name: true, online: true, battery: true, gatewayOnline: true, lastSeenAt: true, statusCheckedAt: true },
    });
    return lock ? { lock } : null;
  }
  if (kind === 'payment.recorded') {
    if (ids.orderId === undefined) return null;
    const entry = await prisma.orderEntry.findFirst({
      where: { id: ids.orderId, hotelId },
      select: { id: true, kind: true, amount: true, currency: true, method: true, stayId: true, roomId: true, customerId: true, createdAt: true },
    });
    return entry ? { payment: entry } : null;
  }
  if (kind === 'feed.failed') {
    if (ids.feedId === undefined) return null;
    const feed = await prisma.calendarFeed.findFirst({
      where: { id: ids.feedId, hotelId },
      select: { id: true, label: true, roomId: true, groupId: true, lastError: true, lastErrorAt: true, lastReadAt: true },
    });
    return feed ? { feed } : null;
  }
  return null;
}
