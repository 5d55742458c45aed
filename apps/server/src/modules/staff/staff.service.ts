import {
  ZStaffApiKeyAuthInput,
  ZStaffFrozenInput,
  ZStaffIdInput,
  ZStaffListInput,
  ZStaffProfileInput,
  ZStaffRoleInput,
  ZStaffRoomsInput,
  type TRole,
  type TStaffListInput,
} from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import { containsExactly, containsText, searchText } from '../../db/search';
import { transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { REVOKE_REASONS, revokeAccountSessions } from '../auth/session.service';
import { roomScope } from '../base/room-access';
import { recordEvent } from '../../db/events';

/**
 * Staff and authority management (issue 9 §1, spec §6): the administrators and staff of the
 * actor's hotel. Only members with `staff.manage` (owners and admins) of every room manage staff (a
 * member limited to some rooms could otherwise give itself the rooms it lacks); an admin never
 * touches an owner, never makes one, and never grants apiKeyAuth (`apikey.manage`, owners only);
 * the hotel always keeps one owner who is not frozen. Removing or freezing a member ends their
 * sessions at once on every face (web, legacy, gateway). Another hotel's member is "not found".
 */

export interface StaffDto {
  id: number;
  accountId: number;
  name: string;
  nickname: string;
  gender: 'male' | 'female' | 'unknown';
  nationality: string;
  birthDate: string | null;
  mobile: string | null;
  email: string | null;
  role: TRole;
  allRooms: boolean;
  rooms: { id: number; name: string }[];
  apiKeyAuth: boolean;
  frozen: boolean;
  isSelf: boolean;
  /** Whether the actor may change or remove this member: an owner only by an owner. */
  manageable: boolean;
  /**
   * The hotel's only owner who is not frozen: it cannot be removed, frozen or made anything but an
   * owner (the service refuses: staff.errors.lastOwner), so the console does not offer it.
   */
  isLastOwner: boolean;
  createdAt: string;
}

const staffSelect = {
  id: true,
  accountId: true,
  role: true,
  allRooms: true,
  apiKeyAuth: true,
  name: true,
  gender: true,
  nationality: true,
  birthDate: true,
  createdAt: true,
  account: { select: { nickname: true, mobile: true, email: true, frozenAt: true } },
  rooms: { where: { room: { deletedAt: null } }, select: { room: { select: { id: true, name: true, sortOrder: true } } } },
} satisfies Prisma.MembershipSelect;

type StaffRow = Prisma.MembershipGetPayload<{ select: typeof staffSelect }>;

/** The hotel's owners who are not frozen (the last of them stays an owner). */
async function activeOwnerIds(ctx: AuthedContext): Promise<number[]> {
  const owners = await ctx.deps.prisma.membership.findMany({
    where: { hotelId: ctx.actor.hotelId, role: 'owner', account: { frozenAt: null } },
    select: { id: true },
  });
  return owners.map((o) => o.id);
}

function toDto(row: StaffRow, ctx: AuthedContext, activeOwners: number[]): StaffDto {
  const rooms = row.rooms.map((r) => r.room).sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name) || a.id - b.id);
  return {
    id: row.id,
    accountId: row.accountId,
    name: row.name || row.account.nickname,
    nickname: row.account.nickname,
    gender: row.gender,
    nationality: row.nationality,
    birthDate: row.birthDate ? row.birthDate.toISOString().slice(0, 10) : null,
    mobile: row.account.mobile,
    email: row.account.email,
    role: row.role,
    allRooms: row.allRooms,
    rooms: row.allRooms ? [] : rooms.map((r) => ({ id: r.id, name: r.name })),
    apiKeyAuth: row.apiKeyAuth,
    frozen: row.account.frozenAt !== null,
    isSelf: row.accountId === ctx.actor.accountId,
    manageable: mayManage(ctx.actor, row.role),
    isLastOwner: row.role === 'owner' && !activeOwners.some((id) => id !== row.id),
    createdAt: row.createdAt.toISOString(),
  };
}

/** An owner is changed, frozen or removed by an owner only. */
const mayManage = (actor: Actor, role: TRole) => role !== 'owner' || actor.role === 'owner';

const notFound = () => new AppError('NOT_FOUND', { messageKey: 'staff.errors.notFound' });
export const ownerOnly = () => new AppError('FORBIDDEN', { messageKey: 'staff.errors.ownerOnly' });
const lastOwner = () => new AppError('FORBIDDEN', { messageKey: 'staff.errors.lastOwner' });

export async function listStaff(ctx: AuthedContext, rawInput: TStaffListInput) {
  const { deps, actor } = ctx;
  requirePermission(actor, 'staff.manage', { wholeHotel: true });
  const input = ZStaffListInput.parse(rawInput);
  const search = searchText(input.search);
  const where: Prisma.MembershipWhereInput = {
    hotelId: actor.hotelId,
    ...(search
      ? {
          OR: [
            { name: containsText(search) },
            { account: { nickname: containsText(search) } },
            { account: { mobile: containsExactly(search) } },
            { account: { email: containsText(search) } },
          ],
        }
      : {}),
  };
  const [total, rows, owners] = await Promise.all([
    deps.prisma.membership.count({ where }),
    deps.prisma.membership.findMany({ where, select: staffSelect, orderBy: [{ id: 'asc' }], skip: (input.page - 1) * input.pageSize, take: input.pageSize }),
    activeOwnerIds(ctx),
  ]);
  return { items: rows.map((r) => toDto(r, ctx, owners)), total, page: input.page, pageSize: input.pageSize };
}

export async function getStaff(ctx: AuthedContext, raw: z.input<typeof ZStaffIdInput>): Promise<StaffDto> {
  requirePermission(ctx.actor, 'staff.manage', { wholeHotel: true });
  const { id } = ZStaffIdInput.parse(raw);
  const row = await ctx.deps.prisma.membership.findFirst({ where: { id, hotelId: ctx.actor.hotelId }, select: staffSelect });
  if (!row) throw notFound();
  return toDto(row, ctx, await activeOwnerIds(ctx));
}

/** The member `id` of the actor's hotel, locked for the change; the actor's rules about owners applied. */
async function lockMember(tx: Tx, ctx: AuthedContext, id: number) {
  const rows = await tx.$queryRaw<{ id: number; accountId: number; role: TRole }[]>`
    SELECT "id", "accountId", "role"::text AS "role" FROM "Membership" WHERE "id" = ${id} AND "hotelId" = ${ctx.actor.hotelId} FOR UPDATE`;
  const member = rows[0];
  if (!member) throw notFound();
  if (!mayManage(ctx.actor, member.role)) throw ownerOnly();
  return member;
}

/** Fails when the hotel would be left without an owner who is not frozen, once `memberId` stops being one. */
async function requireAnotherOwner(tx: Tx, ctx: AuthedContext, memberId: number): Promise<void> {
  // The owners are locked in id order, so two owners demoting each other at once queue.
  const owners = await tx.$queryRaw<{ id: number; frozen: boolean }[]>`
    SELECT m."id", (a."frozenAt" IS NOT NULL) AS "frozen"
    FROM "Membership" m JOIN "Account" a ON a."id" = m."accountId"
    WHERE m."hotelId" = ${ctx.actor.hotelId} AND m."role" = 'owner'
    ORDER BY m."id" FOR UPDATE OF m`;
  if (!owners.some((o) => o.id !== memberId && !o.frozen)) throw lastOwner();
}

/** The rooms to grant: each one a room the actor itself may manage (another hotel's room is "not found"). */
export async function checkRooms(tx: Tx, ctx: AuthedContext, roomIds: number[]): Promise<number[]> {
  const unique = [...new Set(roomIds)];
  if (unique.length === 0) return [];
  const found = await tx.room.findMany({ where: { id: { in: unique }, ...roomScope(ctx.actor) }, select: { id: true } });
  if (found.length !== unique.length) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  return unique;
}

/** Changes a member's role. Only an owner makes or unmakes owners; the last owner stays one. */
export async function setStaffRole(ctx: AuthedContext, raw: z.input<typeof ZStaffRoleInput>): Promise<StaffDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'staff.manage', { wholeHotel: true });
  const input = ZStaffRoleInput.parse(raw);
  if (input.role === 'owner' && actor.role !== 'owner') throw ownerOnly();
  await transaction(deps, async (tx) => {
    const member = await lockMember(tx, ctx, input.id);
    if (member.role === input.role) return;
    if (member.role === 'owner') await requireAnotherOwner(tx, ctx, member.id);
    await tx.membership.update({ where: { id: member.id }, data: { role: input.role } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'staff.changed' });
    await recordAudit(tx, ctx, {
      action: 'staff.role',
      entityType: 'Account',
      entityId: member.accountId,
      before: { membershipId: member.id, role: member.role },
      after: { role: input.role },
    });
  });
  return getStaff(ctx, { id: input.id });
}

/** Sets the rooms a member manages: all of them, or a list (each a room the actor may manage). */
export async function setStaffRooms(ctx: AuthedContext, raw: z.input<typeof ZStaffRoomsInput>): Promise<StaffDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'staff.manage', { wholeHotel: true });
  const input = ZStaffRoomsInput.parse(raw);
  await transaction(deps, async (tx) => {
    const member = await lockMember(tx, ctx, input.id);
    const before = await tx.membership.findUniqueOrThrow({ where: { id: member.id }, select: { allRooms: true, rooms: { select: { roomId: true } } } });
    const roomIds = input.allRooms ? [] : await checkRooms(tx, ctx, input.roomIds);
    await tx.membershipRoom.deleteMany({ where: { membershipId: member.id } });
    if (roomIds.length > 0)
      await tx.membershipRoom.createMany({ data: roomIds.map((roomId) => ({ hotelId: actor.hotelId, membershipId: member.id, roomId })) });
    await tx.membership.update({ where: { id: member.id }, data: { allRooms: input.allRooms } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'staff.changed' });
    await recordAudit(tx, ctx, {
      action: 'staff.rooms',
      entityType: 'Account',
      entityId: member.accountId,
      before: { membershipId: member.id, allRooms: before.allRooms, roomIds: before.rooms.map((r) => r.roomId).sort((a, b) => a - b) },
      after: { allRooms: input.allRooms, roomIds: [...roomIds].sort((a, b) => a - b) },
    });
  });
  return getStaff(ctx, { id: input.id });
}

/** Corrects a member's name, gender, nationality and date of birth (the hotel's record of them; the account's own nickname is the account's). */
export async function setStaffProfile(ctx: AuthedContext, raw: z.input<typeof ZStaffProfileInput>): Promise<StaffDto> {
  const { deps } = ctx;
  requirePermission(ctx.actor, 'staff.manage', { wholeHotel: true });
  const input = ZStaffProfileInput.parse(raw);
  await transaction(deps, async (tx) => {
    const member = await lockMember(tx, ctx, input.id);
    const birthDate = input.birthDate ? new Date(`${input.birthDate}T00:00:00Z`) : null;
    const before = await tx.membership.findUniqueOrThrow({
      where: { id: member.id },
      select: { name: true, gender: true, nationality: true, birthDate: true },
    });
    await tx.membership.update({ where: { id: member.id }, data: { name: input.name, gender: input.gender, nationality: input.nationality, birthDate } });
    const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'staff.changed' });
    await recordAudit(tx, ctx, {
      action: 'staff.profile',
      entityType: 'Account',
      entityId: member.accountId,
      before: { membershipId: member.id, name: before.name, gender: before.gender, nationality: before.nationality, birthDate: day(before.birthDate) },
      after: { name: input.name, gender: input.gender, nationality: input.nationality, birthDate: input.birthDate },
    });
  });
  return getStaff(ctx, { id: input.id });
}

/** Sets the apiKeyAuth flag (encryption management and third-party authorisation): owners only. */
export async function setStaffApiKeyAuth(ctx: AuthedContext, raw: z.input<typeof ZStaffApiKeyAuthInput>): Promise<StaffDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'staff.manage', { wholeHotel: true });
  const input = ZStaffApiKeyAuthInput.parse(raw);
  if (!actor.permissions.has('apikey.manage')) throw ownerOnly();
  await transaction(deps, async (tx) => {
    const member = await lockMember(tx, ctx, input.id);
    const before = await tx.membership.update({ where: { id: member.id }, data: { apiKeyAuth: input.apiKeyAuth }, select: { apiKeyAuth: true } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'staff.changed' });
    await recordAudit(tx, ctx, {
      action: 'staff.apiKeyAuth',
      entityType: 'Account',
      entityId: member.accountId,
      before: { membershipId: member.id },
      after: { apiKeyAuth: before.apiKeyAuth },
    });
  });
  return getStaff(ctx, { id: input.id });
}

/**
 * Freezes or unfreezes a member. Freezing acts on the account (it cannot sign in anywhere), so a
 * hotel only freezes accounts that work for it alone, never itself, and never its last owner;
 * every session of the account ends at once.
 */
export async function setStaffFrozen(ctx: AuthedContext, raw: z.input<typeof ZStaffFrozenInput>): Promise<StaffDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'staff.manage', { wholeHotel: true });
  const input = ZStaffFrozenInput.parse(raw);
  await transaction(deps, async (tx) => {
    const member = await lockMember(tx, ctx, input.id);
    if (member.accountId === actor.accountId) throw new AppError('FORBIDDEN', { messageKey: 'staff.errors.self' });
    const elsewhere = await tx.membership.count({ where: { accountId: member.accountId, hotelId: { not: actor.hotelId } } });
    if (elsewhere > 0) throw new AppError('FORBIDDEN', { messageKey: 'staff.errors.sharedAccount' });
    if (input.frozen && member.role === 'owner') await requireAnotherOwner(tx, ctx, member.id);
    const account = await tx.account.findUniqueOrThrow({ where: { id: member.accountId }, select: { frozenAt: true } });
    await tx.account.update({ where: { id: member.accountId }, data: { frozenAt: input.frozen ? (account.frozenAt ?? new Date()) : null } });
    const revoked = input.frozen ? await revokeAccountSessions(tx, member.accountId, REVOKE_REASONS.accountFrozen) : 0;
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'staff.changed' });
    await recordAudit(tx, ctx, {
      action: input.frozen ? 'staff.freeze' : 'staff.unfreeze',
      entityType: 'Account',
      entityId: member.accountId,
      before: { membershipId: member.id, frozen: account.frozenAt !== null },
      after: { frozen: input.frozen, revokedSessions: revoked },
    });
  });
  return getStaff(ctx, { id: input.id });
}

/** Removes a member from the hotel (the account stays); its sessions in this hotel end at once. */
export async function removeStaff(ctx: AuthedContext, raw: z.input<typeof ZStaffIdInput>): Promise<void> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'staff.manage', { wholeHotel: true });
  const input = ZStaffIdInput.parse(raw);
  await transaction(deps, async (tx) => {
    const member = await lockMember(tx, ctx, input.id);
    if (member.role === 'owner') await requireAnotherOwner(tx, ctx, member.id);
    const revoked = await tx.session.updateMany({
      where: { accountId: member.accountId, hotelId: actor.hotelId, revokedAt: null },
      data: { revokedAt: new Date(), revokeReason: 'membership_removed' },
    });
    await tx.membership.delete({ where: { id: member.id } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'staff.changed' });
    await recordAudit(tx, ctx, {
      action: 'staff.remove',
      entityType: 'Account',
      entityId: member.accountId,
      before: { membershipId: member.id, role: member.role },
      after: { revokedSessions: revoked.count },
    });
  });
}

/** The rooms the actor may grant, each marked when the member `id` manages it (for a room picker). */
export async function listStaffRoomChoices(ctx: AuthedContext, raw: z.input<typeof ZStaffIdInput>) {
  requirePermission(ctx.actor, 'staff.manage', { wholeHotel: true });
  const member = await getStaff(ctx, raw);
  const managed = new Set(member.rooms.map((r) => r.id));
  const rooms = await ctx.deps.prisma.room.findMany({
    where: roomScope(ctx.actor),
    select: { id: true, name: true, group: { select: { name: true } } },
    orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }, { id: 'asc' }],
  });
  return {
    allRooms: member.allRooms,
    rooms: rooms.map((r) => ({ id: r.id, name: r.name, groupName: r.group?.name ?? null, managed: member.allRooms || managed.has(r.id) })),
  };
}
