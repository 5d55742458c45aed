import type { AuthedContext } from '../../context';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { recordAudit, type AuditEntry } from '../audit/audit.service';
import { findRoom, roomScope } from '../base/room-access';
import { findStay, requireActive } from '../base/stay-dto';
import { REVOCABLE_STATES, retryState, revoke, type TRevokeReason } from './delivery-states';
import { followCredentials } from './delivery';
import { recordEvent } from '../../db/events';
import { credentialKind, type CredentialKind } from './delivery-kinds';
import type { DeliveryStateName } from './delivery-handler';

/**
 * The life cycle of a credential on a room's lock, whatever its kind (a password, a face
 * authorisation): the steps written once here, what differs by kind done by its handler in
 * delivery-kinds.ts. A step by hand moves the credential to a new version in one transaction with
 * its audit row, guarded by the state it was read in, and then asks the delivery engine to carry
 * it out (docs/credential-delivery.md).
 */

/** A credential as a step by hand reads it first. */
export interface CredentialFacts {
  id: number;
  roomId: number;
  deliveryState: DeliveryStateName;
  lastError?: string | null;
}

/** What a step's audit row says: its action and entity, and what it adds after. */
export type LifeCycleAudit = Required<Pick<AuditEntry, 'action' | 'entityType'>> & Pick<AuditEntry, 'after'>;

/** Its validity has ended: the lock refuses it, whatever its delivery state says. */
export const isExpired = (c: { validUntil: Date | null }, now: Date) => c.validUntil !== null && c.validUntil.getTime() <= now.getTime();

const ACTIVE_STATES = ['pending', 'on_lock', 'failed', 'removing', 'unknown', 'remove_failed'] as const;
const HISTORY_STATES = ['removed', 'failed', 'remove_failed'] as const;

/**
 * A list's scope, for every kind: `active`: not yet taken off its lock and still valid (permanent,
 * or ending later); `history`: taken off, failed, or whose validity ended. A failed delivery is in
 * both: past, and still to retry.
 */
export function scopeWhere(scope: 'active' | 'history' | 'all', now: Date) {
  if (scope === 'active') return { AND: [{ deliveryState: { in: [...ACTIVE_STATES] } }, { OR: [{ validUntil: null }, { validUntil: { gt: now } }] }] };
  if (scope === 'history') return { OR: [{ deliveryState: { in: [...HISTORY_STATES] } }, { validUntil: { lte: now } }] };
  return {};
}

/**
 * The rows a list of credentials (passwords, face authorisations) shows: the actor's hotel and
 * rooms, the room or stay asked, the scope. A room or stay of another hotel is "not found", like
 * any id: never an empty list that looks fine.
 */
export async function credentialListWhere(ctx: AuthedContext, input: { roomId?: number; stayId?: number; scope: 'active' | 'history' | 'all' }) {
  if (input.roomId !== undefined) await findRoom(ctx, input.roomId, { id: true });
  if (input.stayId !== undefined) await findStay(ctx, input.stayId);
  return {
    hotelId: ctx.actor.hotelId,
    room: roomScope(ctx.actor),
    ...(input.roomId !== undefined ? { roomId: input.roomId } : {}),
    ...(input.stayId !== undefined ? { stayId: input.stayId } : {}),
    ...scopeWhere(input.scope, new Date()),
  };
}

/**
 * The period of a credential issued for a stay: the stay must be active and of the credential's
 * room; it is valid from the stay's check-in (or now) unless a start is asked, and never beyond the
 * stay's expected check-out. Without a stay: the period asked (from now when no start is).
 */
export async function periodOfStay(
  ctx: AuthedContext,
  input: { stayId?: number; validFrom?: Date; validUntil?: Date | null },
  roomId: number,
  now: Date,
): Promise<{ stay: Awaited<ReturnType<typeof findStay>> | null; from: Date; until: Date | null }> {
  if (input.stayId === undefined) return { stay: null, from: input.validFrom ?? now, until: input.validUntil ?? null };
  const stay = await findStay(ctx, input.stayId);
  requireActive(stay, now);
  if (stay.roomId !== roomId)
    throw new AppError('VALIDATION', { messageKey: 'credentials.errors.stayOfAnotherRoom', fields: { stayId: 'credentials.errors.stayOfAnotherRoom' } });
  const from = input.validFrom ?? (stay.checkInAt.getTime() > now.getTime() ? stay.checkInAt : now);
  const until = input.validUntil && input.validUntil.getTime() < stay.expectedCheckOutAt.getTime() ? input.validUntil : stay.expectedCheckOutAt;
  return { stay, from, until };
}

/**
 * Takes a credential off its lock by hand (a new version in state `removing`, with why). Already
 * going or gone: nothing is written and nothing audited; the caller answers it as it is.
 */
export async function revokeCredential(
  ctx: AuthedContext,
  kind: CredentialKind,
  before: CredentialFacts,
  reason: TRevokeReason,
  audit: LifeCycleAudit,
): Promise<void> {
  const { deps, actor } = ctx;
  await transaction(deps, async (tx) => {
    const count = await credentialKind(kind).transition(tx, before.id, REVOCABLE_STATES, revoke(reason));
    if (count) {
      await recordEvent(tx, { hotelId: actor.hotelId, kind: 'credential.changed' });
      followCredentials(tx, deps, actor.hotelId, { roomId: before.roomId });
      await recordAudit(tx, ctx, {
        action: audit.action,
        entityType: audit.entityType,
        entityId: before.id,
        before: { deliveryState: before.deliveryState },
        ...(audit.after ? { after: audit.after } : {}),
      });
    }
  });
}

/** Tries a failed delivery (or removal) again by hand, as a new version; CONFLICT when there is nothing to retry. */
export async function retryCredential(ctx: AuthedContext, kind: CredentialKind, before: CredentialFacts, audit: LifeCycleAudit): Promise<void> {
  const { deps, actor } = ctx;
  const next = retryState(before.deliveryState);
  if (!next) throw new AppError('CONFLICT', { messageKey: 'credentials.errors.nothingToRetry' });
  await transaction(deps, async (tx) => {
    const count = await credentialKind(kind).transition(tx, before.id, [before.deliveryState], { deliveryState: next, version: { increment: 1 }, attempts: 0 });
    if (!count) throw new AppError('CONFLICT', { messageKey: 'credentials.errors.nothingToRetry' });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'credential.changed' });
    followCredentials(tx, deps, actor.hotelId, { roomId: before.roomId });
    await recordAudit(tx, ctx, {
      action: audit.action,
      entityType: audit.entityType,
      entityId: before.id,
      before: { deliveryState: before.deliveryState, lastError: before.lastError ?? null },
      after: { deliveryState: next },
    });
  });
}
