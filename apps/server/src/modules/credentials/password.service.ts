import {
  ZPasswordCreateInput,
  ZPasswordIdInput,
  ZPasswordLimitInput,
  ZPasswordListInput,
  ZPasswordRevokeInput,
  type TDeliveryState,
  type TPasswordCreateInput,
  type TPasswordKind,
  type TPasswordLimitInput,
  type TPasswordListInput,
  type TPasswordRevokeInput,
  passwordValidity,
} from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { lockRooms, transaction } from '../../db/transaction';
import type { Prisma } from '../../generated/prisma/client';
import { AppError } from '../../errors';
import { requireLockTakes } from '../base/lock-takes';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findRoom, roomScope } from '../base/room-access';
import { findStay, requireActive } from '../base/stay-dto';
import { newPasswordValidity, PASSWORD_FOR_VALIDITY_SELECT } from './revocation';
import { LIVE_DELIVERY_STATES, revoke } from './delivery-states';
import { writePassword } from './credential-writer';
import { followCredentials } from './delivery';
import { DOOR_SELECT, doorDto, type CredentialDoorDto } from '../base/door-dto';
import { credentialListWhere, isExpired, periodOfStay, retryCredential, revokeCredential } from './life-cycle';
import { recordEvent } from '../../db/events';

/**
 * Lock passwords (spec: over-the-air, custom, one-time; permanent validity). A password is a
 * credential of the delivery engine: created `pending`, shown active only once the lock (or for a
 * generated one, the lock cloud) confirmed it, taken off by a revocation.
 */

export interface PasswordDto {
  id: number;
  roomId: number;
  roomName: string;
  stayId: number | null;
  accountId: number | null;
  kind: TPasswordKind;
  holderName: string;
  /** Null until the lock cloud generated it. */
  code: string | null;
  validFrom: string;
  validUntil: string | null;
  deliveryState: TDeliveryState;
  /** Code of the last failure (`credentials.errors.<code>`), or null. */
  lastError: string | null;
  attempts: number;
  revokeReason: string | null;
  deliveredAt: string | null;
  removedAt: string | null;
  createdAt: string;
  /** Its validity has ended (the lock refuses it, whatever its delivery state says). */
  expired: boolean;
  /** The generated password it replaced (a new validity is a new code): the guest's code changed. */
  replacesId: number | null;
  /** The lock cloud would not issue these hours again (TTLock -1026): the validity is the nearest it took. */
  validityAdjusted: boolean;
  /** The lock platform failed to set the chosen code: this is one of the backup codes it keeps on the lock (Seam). */
  backupCode: boolean;
  /** Pending, accepted by a lock platform that sets it later (Seam): being set on the lock. */
  setting: boolean;
  /** A shared door's copy of the room's password (docs/shared-doors.md): the door; null on the room's lock. */
  door: CredentialDoorDto | null;
}

const passwordSelect = {
  id: true,
  roomId: true,
  stayId: true,
  accountId: true,
  kind: true,
  holderName: true,
  code: true,
  validFrom: true,
  validUntil: true,
  deliveryState: true,
  lastError: true,
  attempts: true,
  revokeReason: true,
  deliveredAt: true,
  removedAt: true,
  createdAt: true,
  replacesId: true,
  validityAdjusted: true,
  backupCode: true,
  version: true,
  acceptedVersion: true,
  room: { select: { name: true } },
  doorLock: { select: DOOR_SELECT },
} as const satisfies Prisma.LockPasswordSelect;
type PasswordRow = Prisma.LockPasswordGetPayload<{ select: typeof passwordSelect }>;

function toDto(p: PasswordRow): PasswordDto {
  return {
    id: p.id,
    roomId: p.roomId,
    roomName: p.room.name,
    stayId: p.stayId,
    accountId: p.accountId,
    kind: p.kind,
    holderName: p.holderName,
    code: p.code,
    validFrom: p.validFrom.toISOString(),
    validUntil: p.validUntil?.toISOString() ?? null,
    deliveryState: p.deliveryState,
    lastError: p.lastError,
    attempts: p.attempts,
    revokeReason: p.revokeReason,
    deliveredAt: p.deliveredAt?.toISOString() ?? null,
    removedAt: p.removedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    expired: isExpired(p, new Date()),
    replacesId: p.replacesId,
    validityAdjusted: p.validityAdjusted,
    backupCode: p.backupCode,
    setting: p.deliveryState === 'pending' && p.acceptedVersion === p.version,
    door: doorDto(p.doorLock),
  };
}

/** Issues a password on a room's lock, for a stay, a staff member or anyone named. */
export async function createPassword(ctx: AuthedContext, raw: TPasswordCreateInput): Promise<PasswordDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const input = ZPasswordCreateInput.parse(raw);
  const now = new Date();
  const room = await findRoom(ctx, input.roomId, { id: true });
  // A chosen code needs a lock that takes codes sent to it; a generated one, a lock that computes them.
  await requireLockTakes(deps.prisma, actor.hotelId, room.id, input.kind === 'custom' ? 'onlineCodes' : 'offlineCodes');
  let holderName = input.holderName;
  let guestId: number | null = null;
  let customerId: number | null = null;
  // A stay's password is valid for the stay, and never beyond it.
  const { stay, from, until } = await periodOfStay(ctx, input, room.id, now);
  if (stay) {
    const primary = stay.guests.find((g) => g.isPrimary) ?? stay.guests[0];
    holderName ||= primary?.name ?? '';
    guestId = primary?.id ?? null;
    if (primary?.mobile) {
      const customer = await deps.prisma.customer.findFirst({ where: { hotelId: actor.hotelId, mobile: primary.mobile }, select: { id: true } });
      customerId = customer?.id ?? null;
    }
  }
  if (input.accountId !== undefined) {
    const member = await deps.prisma.membership.findFirst({
      where: { hotelId: actor.hotelId, accountId: input.accountId },
      select: { account: { select: { nickname: true, mobile: true } } },
    });
    if (!member) throw new AppError('NOT_FOUND', { messageKey: 'credentials.errors.staffNotFound' });
    holderName ||= member.account.nickname || member.account.mobile || '';
  }
  const validity = passwordValidity(input.kind, from, until, actor.timeZone);
  // Also a start after the stay's check-out, which the stay's end cut short.
  if (validity.validUntil && validity.validUntil.getTime() <= Math.max(now.getTime(), validity.validFrom.getTime())) {
    throw new AppError('VALIDATION', { messageKey: 'validation.endAfterStart', fields: { validUntil: 'validation.endAfterStart' } });
  }
  const created = await transaction(deps, async (tx) => {
    await lockRooms(tx, actor.hotelId, [room.id]);
    // The same code twice on one lock cannot work (the lock refuses it): the writer says so before trying.
    const row = await writePassword(
      tx,
      {
        hotelId: actor.hotelId,
        roomId: room.id,
        stayId: input.stayId ?? null,
        guestId,
        customerId,
        accountId: input.accountId ?? null,
        createdByAccountId: actor.accountId,
        kind: input.kind,
        holderName,
        code: input.kind === 'custom' ? input.code : null,
        ...validity,
      },
      { select: passwordSelect, onTaken: 'throw' },
    );
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
    followCredentials(tx, deps, actor.hotelId, { roomId: room.id });
    await recordAudit(tx, ctx, {
      action: 'password.create',
      entityType: 'LockPassword',
      entityId: row.id,
      after: {
        roomId: room.id,
        kind: row.kind,
        stayId: row.stayId,
        accountId: row.accountId,
        holderName,
        validFrom: row.validFrom.toISOString(),
        validUntil: row.validUntil?.toISOString() ?? null,
      },
    });
    return row;
  });
  return toDto(created);
}

export async function listPasswords(
  ctx: AuthedContext,
  raw: TPasswordListInput,
): Promise<{ items: PasswordDto[]; total: number; page: number; pageSize: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZPasswordListInput.parse(raw);
  const where: Prisma.LockPasswordWhereInput = await credentialListWhere(ctx, input);
  const [rows, total] = await Promise.all([
    deps.prisma.lockPassword.findMany({
      where,
      select: passwordSelect,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    deps.prisma.lockPassword.count({ where }),
  ]);
  return { items: rows.map(toDto), total, page: input.page, pageSize: input.pageSize };
}

async function findPassword(ctx: AuthedContext, id: number): Promise<PasswordRow> {
  const row = await ctx.deps.prisma.lockPassword.findFirst({ where: { id, hotelId: ctx.actor.hotelId, room: roomScope(ctx.actor) }, select: passwordSelect });
  if (!row) throw new AppError('NOT_FOUND', { messageKey: 'credentials.errors.notFound' });
  return row;
}

export async function getPassword(ctx: AuthedContext, raw: z.input<typeof ZPasswordIdInput>): Promise<PasswordDto> {
  requirePermission(ctx.actor, 'room.read');
  return toDto(await findPassword(ctx, ZPasswordIdInput.parse(raw).id));
}

/**
 * Takes a password off its lock: the spec's delete (reason `manual`) and "call back" (`called_back`)
 * are this one rule, told apart only by the reason the history shows. Already going or gone:
 * answered as it is.
 */
export async function revokePassword(ctx: AuthedContext, raw: TPasswordRevokeInput): Promise<PasswordDto> {
  requirePermission(ctx.actor, 'credential.manage');
  const input = ZPasswordRevokeInput.parse(raw);
  const before = await findPassword(ctx, input.id);
  await revokeCredential(ctx, 'password', before, input.reason, {
    action: 'password.revoke',
    entityType: 'LockPassword',
    after: { revokeReason: input.reason },
  });
  return toDto(await findPassword(ctx, before.id));
}

/** Tries a failed delivery (or removal) again, as a new version. */
export async function retryPassword(ctx: AuthedContext, raw: z.input<typeof ZPasswordIdInput>): Promise<PasswordDto> {
  requirePermission(ctx.actor, 'credential.manage');
  const before = await findPassword(ctx, ZPasswordIdInput.parse(raw).id);
  await retryCredential(ctx, 'password', before, { action: 'password.retry', entityType: 'LockPassword' });
  return toDto(await findPassword(ctx, before.id));
}

export interface PasswordLimitResult {
  stayId: number;
  validUntil: string;
  /** Passwords whose validity was shortened (and go to the lock again). */
  limited: number;
  /** Of those, generated codes replaced by a new code (the guest's code changes). */
  replaced: number;
  /** Passwords taken off instead: one-time ones (their window is fixed) and ones that would start after the new end. */
  revoked: number;
  /** The stay's face authorisations given the new end (they go to the lock again). */
  limitedFaces: number;
  /** Face authorisations taken off: they would only start after the new end. */
  revokedFaces: number;
  /** Every password of the stay, after the change, newest first. */
  items: PasswordDto[];
}

/**
 * Limits the validity of a stay's passwords (legacy `room/tenant/limitPassword`, the spec's "limit
 * the tenant's password"): none of them works after `validUntil`, which is ahead and not after the
 * stay's expected check-out. A live password valid longer gets the new end (rounded as its lock
 * applies it) as a new version the delivery engine changes on the lock; a one-time password (the
 * lock cloud fixes its window) or one that would only start after the new end is taken off
 * (`limited`). Ones already ending earlier stay.
 * The stay's face authorisations follow the same limit (the whole stay's access is limited).
 */
export async function limitStayPasswords(ctx: AuthedContext, raw: TPasswordLimitInput): Promise<PasswordLimitResult> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const input = ZPasswordLimitInput.parse(raw);
  const now = new Date();
  const stay = await findStay(ctx, input.stayId);
  requireActive(stay, now);
  if (input.validUntil.getTime() <= now.getTime())
    throw new AppError('VALIDATION', { messageKey: 'credentials.errors.limitInPast', fields: { validUntil: 'credentials.errors.limitInPast' } });
  if (input.validUntil.getTime() > stay.expectedCheckOutAt.getTime())
    throw new AppError('VALIDATION', { messageKey: 'credentials.errors.limitBeyondStay', fields: { validUntil: 'credentials.errors.limitBeyondStay' } });
  const counts = await transaction(deps, async (tx) => {
    // Serialised with issuing a password for the room, so none slips past the limit.
    await lockRooms(tx, actor.hotelId, [stay.roomId]);
    const rows = await tx.lockPassword.findMany({
      where: {
        hotelId: actor.hotelId,
        stayId: stay.id,
        deliveryState: { in: [...LIVE_DELIVERY_STATES] },
        OR: [{ validUntil: null }, { validUntil: { gt: input.validUntil } }],
      },
      select: PASSWORD_FOR_VALIDITY_SELECT,
      orderBy: { id: 'asc' },
    });
    const limited: { id: number; validUntil: string | null }[] = [];
    const revoked: number[] = [];
    const replaced: { id: number; by: number }[] = [];
    for (const row of rows) {
      const validity = passwordValidity(row.kind, row.validFrom, input.validUntil, actor.timeZone);
      const live = { id: row.id, deliveryState: { in: [...LIVE_DELIVERY_STATES] } };
      if (row.kind === 'one_time' || !validity.validUntil || validity.validUntil.getTime() <= row.validFrom.getTime()) {
        const { count } = await tx.lockPassword.updateMany({ where: live, data: revoke('limited') });
        if (count) revoked.push(row.id);
        continue;
      }
      // Rounded as the lock applies it, a generated password may already end there.
      if (row.validUntil && validity.validUntil.getTime() >= row.validUntil.getTime()) continue;
      // A custom code changes on its lock; a generated one on its lock is replaced by a new code.
      const r = await newPasswordValidity(tx, row, { validFrom: row.validFrom, validUntil: validity.validUntil });
      if (r.outcome === 'changed') limited.push({ id: row.id, validUntil: row.validUntil?.toISOString() ?? null });
      if (r.outcome === 'replaced') replaced.push({ id: row.id, by: r.replacement! });
    }
    // The stay's faces follow the same limit (to the minute, as a face is kept on the lock).
    const faceLimit = new Date(Math.floor(input.validUntil.getTime() / 60_000) * 60_000);
    const faces = await tx.faceAuthorization.findMany({
      where: {
        hotelId: actor.hotelId,
        stayId: stay.id,
        deliveryState: { in: [...LIVE_DELIVERY_STATES] },
        OR: [{ validUntil: null }, { validUntil: { gt: faceLimit } }],
      },
      select: { id: true, validFrom: true, validUntil: true, deliveryState: true },
      orderBy: { id: 'asc' },
    });
    const limitedFaces: { id: number; validUntil: string | null }[] = [];
    const revokedFaces: number[] = [];
    for (const face of faces) {
      const live = { id: face.id, deliveryState: { in: [...LIVE_DELIVERY_STATES] } };
      if (faceLimit.getTime() <= face.validFrom.getTime()) {
        if ((await tx.faceAuthorization.updateMany({ where: live, data: revoke('limited') })).count) revokedFaces.push(face.id);
        continue;
      }
      const data =
        face.deliveryState === 'failed'
          ? { validUntil: faceLimit }
          : { validUntil: faceLimit, deliveryState: 'pending' as const, version: { increment: 1 }, attempts: 0, lastError: null };
      if ((await tx.faceAuthorization.updateMany({ where: live, data })).count)
        limitedFaces.push({ id: face.id, validUntil: face.validUntil?.toISOString() ?? null });
    }
    if (limited.length || revoked.length || replaced.length || limitedFaces.length || revokedFaces.length) {
      await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
      followCredentials(tx, deps, actor.hotelId, { stayId: stay.id });
      await recordAudit(tx, ctx, {
        action: 'password.limit',
        entityType: 'Stay',
        entityId: stay.id,
        before: { passwords: limited, faces: limitedFaces },
        after: {
          validUntil: input.validUntil.toISOString(),
          limited: limited.map((l) => l.id),
          revoked,
          replaced,
          limitedFaces: limitedFaces.map((l) => l.id),
          revokedFaces,
        },
      });
    }
    return {
      limited: limited.length + replaced.length,
      replaced: replaced.length,
      revoked: revoked.length,
      limitedFaces: limitedFaces.length,
      revokedFaces: revokedFaces.length,
    };
  });
  const items = await deps.prisma.lockPassword.findMany({
    where: { hotelId: actor.hotelId, stayId: stay.id },
    select: passwordSelect,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return { stayId: stay.id, validUntil: input.validUntil.toISOString(), ...counts, items: items.map(toDto) };
}
