import { transaction } from '../../db/transaction';
import { LockProviderError } from '../../infra/locks/provider';
import type { CredentialKindHandler, DeliveryPatch } from '../credentials/delivery-handler';
import { registerCredentialKind } from '../credentials/delivery-kinds';
import { lockName, lockTag } from '../credentials/lock-tags';
import { credentialDeliveryLock } from '../base/lock-ref';
import { ensureDoorNumber, hotelTagOf, ensureLockNumber, lockKeyEntries } from './card-keys';

/**
 * Room cards in the delivery engine (docs/card-format.md, docs/credential-delivery.md):
 *
 * - `card`: a grant of a card on one room's lock, or on a shared door serving the card's room
 *   (`doorLockId`: a guest card that names the door, docs/shared-doors.md). A number card (TTLock identityCard) is pushed to
 *   the lock by its number and removed from it. An encoded card (a hotel card system's, through
 *   Seam: card-encode.ts) is on its doors from its encoding; taking it off deletes it in the system. A data card is read by the lock offline: there is
 *   nothing to push (it counts as on the lock once written and read back); taking it off means
 *   denylisting the card id written on it, so a card not returned, lost, or whose stay ended early
 *   is refused from then on.
 * - `card_keys`: the hotel's card key sets a room's lock (or a shared door's) must hold (pushed on a rotation, or when
 *   the lock is paired); `version` names the wanted list.
 */

const WORK_STATES = ['pending', 'removing'] as const;

function withoutCredentialFields({
  code: _code,
  providerRef: _ref,
  revokeReason: _reason,
  validFrom: _from,
  validUntil: _until,
  validityAdjusted: _adjusted,
  ...patch
}: DeliveryPatch) {
  return patch;
}

const cardHandler: CredentialKindHandler = {
  async load(prisma, id) {
    const g = await prisma.cardGrant.findUnique({
      where: { id },
      select: {
        id: true,
        hotelId: true,
        roomId: true,
        doorLockId: true,
        medium: true,
        issueId: true,
        deliveryState: true,
        version: true,
        providerRef: true,
        validFrom: true,
        validUntil: true,
        revokeReason: true,
        card: { select: { cardNumber: true } },
        issue: { select: { holderName: true } },
        hotel: { select: { cardNumberOrder: true } },
      },
    });
    if (!g || g.roomId === null) return null;
    return {
      id: g.id,
      hotelId: g.hotelId,
      roomId: g.roomId,
      doorLockId: g.doorLockId,
      lock: await credentialDeliveryLock(prisma, g.hotelId, g.roomId, g.doorLockId),
      deliveryState: g.deliveryState,
      version: g.version,
      providerRef: g.providerRef,
      validFrom: g.validFrom,
      validUntil: g.validUntil,
      revokeReason: g.revokeReason,
      // The lock names the writing of the card: records of any of its rooms point at it.
      lockName: lockName('card', g.issueId ?? g.id, g.issue?.holderName ?? ''),
      card: { medium: g.medium, number: g.card.cardNumber, issueId: g.issueId ?? g.id, reversed: g.hotel.cardNumberOrder === 'reversed' },
    };
  },
  async findWork(prisma, { guestId, customerId, ...scope }) {
    const rows = await prisma.cardGrant.findMany({
      where: {
        ...scope,
        ...(guestId !== undefined ? { guestId } : {}),
        ...(customerId !== undefined ? { customerId } : {}),
        roomId: { not: null },
        deliveryState: { in: [...WORK_STATES] },
      },
      select: { id: true, version: true },
      orderBy: { id: 'asc' },
    });
    return rows.map((r) => ({ kind: 'card' as const, id: r.id, version: r.version }));
  },
  async push(provider, lockId, row) {
    if (row.card?.medium === 'number') {
      return provider.addCard(lockId, {
        cardNumber: row.card.number,
        name: row.lockName,
        reversed: row.card.reversed,
        startAt: row.validFrom,
        endAt: row.validUntil,
      });
    }
    // An encoded card is in its card system from its encoding at the desk (card-encode.ts).
    if (row.card?.medium === 'encoded' && row.providerRef) return { ref: row.providerRef };
    // A data card opens by what is written on it: the lock has nothing to learn.
    return { ref: `C${row.card?.issueId ?? row.id}` };
  },
  async remove(provider, lockId, row) {
    // A number card comes off its lock; an encoded card off its card system (every door at once:
    // the grants of its other doors then find it gone, which is removed).
    if (row.card?.medium === 'number' || row.card?.medium === 'encoded') {
      if (row.providerRef) await provider.deleteCard(lockId, row.providerRef);
      return;
    }
    await provider.denylistCard(lockId, { cardId: row.card?.issueId ?? row.id });
  },
  async changeValidity(provider, lockId, row) {
    if (row.card?.medium !== 'number') return;
    // The adapter has no card period change: off, then (answered "not found") on again.
    if (row.providerRef) {
      try {
        await provider.deleteCard(lockId, row.providerRef);
      } catch (error) {
        if (!(error instanceof LockProviderError) || error.code !== 'credential_not_found') throw error;
      }
    }
    throw new LockProviderError('credential_not_found');
  },
  async findOnLock(provider, lockId, row) {
    if (row.card?.medium !== 'number') return null;
    const tag = lockTag('card', row.card.issueId);
    const found = (await provider.listCards(lockId)).find((c) => c.name.trim().endsWith(tag));
    return found?.ref ?? null;
  },
  async save(prisma, id, patch) {
    const { code: _code, validFrom: _from, validUntil: _until, validityAdjusted: _adjusted, backupCode: _backup, ...data } = patch;
    await prisma.cardGrant.update({ where: { id }, data });
  },
  async saveIfVersion(prisma, id, version, patch) {
    const { code: _code, validFrom: _from, validUntil: _until, validityAdjusted: _adjusted, backupCode: _backup, ...data } = patch;
    const { count } = await prisma.cardGrant.updateMany({ where: { id, version }, data });
    return count === 1;
  },
  async transition(tx, id, from, change) {
    return (await tx.cardGrant.updateMany({ where: { id, deliveryState: { in: [...from] } }, data: change })).count;
  },
};

/** The card keys of a room's lock: the hotel's tag, the room's lock number and the key sets its cards need. */
const cardKeysHandler: CredentialKindHandler = {
  async load(prisma, id) {
    const k = await prisma.lockCardKeys.findUnique({
      where: { id },
      select: { id: true, hotelId: true, roomId: true, doorLockId: true, deliveryState: true, version: true, createdAt: true },
    });
    if (!k) return null;
    return {
      id: k.id,
      hotelId: k.hotelId,
      roomId: k.roomId ?? 0,
      doorLockId: k.doorLockId,
      lock: k.roomId === null && k.doorLockId === null ? null : await credentialDeliveryLock(prisma, k.hotelId, k.roomId ?? 0, k.doorLockId),
      deliveryState: k.deliveryState,
      version: k.version,
      providerRef: null,
      validFrom: k.createdAt,
      validUntil: null,
      revokeReason: null,
      lockName: '',
    };
  },
  async findWork(prisma, { guestId, customerId, stayId, ...scope }) {
    // Key sets belong to rooms, not to guests or stays.
    if (guestId !== undefined || customerId !== undefined || stayId !== undefined) return [];
    const rows = await prisma.lockCardKeys.findMany({
      where: { ...scope, deliveryState: { in: [...WORK_STATES] } },
      select: { id: true, version: true },
      orderBy: { id: 'asc' },
    });
    return rows.map((r) => ({ kind: 'card_keys' as const, id: r.id, version: r.version }));
  },
  async push(provider, lockId, row, context) {
    const door = row.doorLockId ?? null;
    // A room's lock learns its lock number; a shared door its door number (guest cards name it).
    const { keys, number } = await transaction(context, async (tx) => ({
      number: door === null ? await ensureLockNumber(tx, row.hotelId, row.roomId) : await ensureDoorNumber(tx, row.hotelId, door),
      keys: await lockKeyEntries(tx, context.config.cardKeySecret, row.hotelId),
    }));
    const sets = keys.map((k) => ({ id: k.id, validUntil: k.validUntil ?? null, keys: k.keys }));
    await provider.setCardKeys(
      lockId,
      door === null
        ? { hotelTag: hotelTagOf(row.hotelId), lockNumber: number, keys: sets }
        : { hotelTag: hotelTagOf(row.hotelId), doorNumber: number, keys: sets },
    );
    return { ref: 'keys' };
  },
  async remove() {
    // The keys stay on the lock until others replace them.
  },
  async changeValidity() {
    // Never reached: a card key row has no provider ref.
  },
  async findOnLock() {
    return null;
  },
  async save(prisma, id, patch) {
    await prisma.lockCardKeys.update({ where: { id }, data: withoutCredentialFields(patch) });
  },
  async saveIfVersion(prisma, id, version, patch) {
    const { count } = await prisma.lockCardKeys.updateMany({ where: { id, version }, data: withoutCredentialFields(patch) });
    return count === 1;
  },
  async transition(tx, id, from, { revokeReason: _reason, ...change }) {
    // A key set is never revoked, only replaced: a retry is the one step it takes.
    return (await tx.lockCardKeys.updateMany({ where: { id, deliveryState: { in: [...from] } }, data: change })).count;
  },
};

/** Cards' kinds of the delivery engine, registered with credentials (which imports no card module): wireModules (wiring.ts) calls it from createDeps in every process. */
export function registerCardDelivery(): void {
  registerCredentialKind('card', cardHandler);
  registerCredentialKind('card_keys', cardKeysHandler);
}
