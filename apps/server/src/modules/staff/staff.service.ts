import { randomInt } from 'node:crypto';
import {
  ZStaffAddInput,
  ZStaffApiKeyAuthInput,
  ZStaffFrozenInput,
  ZStaffIdInput,
  ZStaffListInput,
  ZStaffProfileInput,
  ZStaffRoleInput,
  ZStaffRoomsInput,
  isMobile,
  type TRole,
  type TStaffAddInput,
  type TStaffListInput,
} from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import { containsExactly, containsText, searchText } from '../../db/search';
import { transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { SMS_JOB_OPTIONS } from '../../jobs/queues';
import { recordAudit } from '../audit/audit.service';
import { hashPassword } from '../auth/password';
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
const ownerOnly = () => new AppError('FORBIDDEN', { messageKey: 'staff.errors.ownerOnly' });
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
async function checkRooms(tx: Tx, ctx: AuthedContext, roomIds: number[]): Promise<number[]> {
  const unique = [...new Set(roomIds)];
  if (unique.length === 0) return [];
  const found = await tx.room.findMany({ where: { id: { in: unique }, ...roomScope(ctx.actor) }, select: { id: true } });
  if (found.length !== unique.length) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  return unique;
}

function randomPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/**
 * Adds a member. An account known by the mobile or e-mail joins the hotel; an unknown mobile gets
 * a new account whose first password is sent by SMS (through the SMS queue, as password recovery
 * does). An unknown e-mail cannot get an SMS: the member must be added by mobile.
 */
export async function addStaff(ctx: AuthedContext, rawInput: TStaffAddInput): Promise<StaffDto & { created: boolean }> {
  const { deps, actor, meta } = ctx;
  requirePermission(actor, 'staff.manage', { wholeHotel: true });
  const input = ZStaffAddInput.parse(rawInput);
  if (input.role === 'owner' && actor.role !== 'owner') throw ownerOnly();
  if (input.apiKeyAuth && !actor.permissions.has('apikey.manage')) throw ownerOnly();
  const byEmail = input.account.includes('@');
  const existing = await deps.prisma.account.findUnique({ where: byEmail ? { email: input.account } : { mobile: input.account }, select: { id: true } });
  let password: string | null = null;
  let passwordHash: string | null = null;
  if (!existing) {
    if (byEmail || !isMobile(input.account)) {
      throw new AppError('VALIDATION', { messageKey: 'staff.errors.mobileRequiredForNew', fields: { account: 'staff.errors.mobileRequiredForNew' } });
    }
    if (deps.config.sms.provider === 'none') throw new AppError('SERVICE_UNAVAILABLE', { messageKey: 'errors.SMS_DISABLED' });
    password = randomPassword();
    passwordHash = await hashPassword(password);
  }
  const { membershipId, hotelName } = await transaction(deps, async (tx) => {
    const roomIds = input.allRooms ? [] : await checkRooms(tx, ctx, input.roomIds);
    const account =
      existing ?? (await tx.account.create({ data: { mobile: input.account, nickname: input.name, passwordHash: passwordHash! }, select: { id: true } }));
    const already = await tx.membership.findUnique({ where: { accountId_hotelId: { accountId: account.id, hotelId: actor.hotelId } }, select: { id: true } });
    if (already) throw new AppError('CONFLICT', { messageKey: 'staff.errors.alreadyMember' });
    const membership = await tx.membership.create({
      data: {
        accountId: account.id,
        hotelId: actor.hotelId,
        role: input.role,
        allRooms: input.allRooms,
        apiKeyAuth: input.apiKeyAuth,
        name: input.name,
        gender: input.gender,
        nationality: input.nationality,
        birthDate: input.birthDate ? new Date(`${input.birthDate}T00:00:00Z`) : null,
      },
      select: { id: true, hotel: { select: { name: true } } },
    });
    if (roomIds.length > 0)
      await tx.membershipRoom.createMany({ data: roomIds.map((roomId) => ({ hotelId: actor.hotelId, membershipId: membership.id, roomId })) });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'staff.changed' });
    await recordAudit(tx, ctx, {
      action: 'staff.add',
      entityType: 'Account',
      entityId: account.id,
      after: {
        membershipId: membership.id,
        role: input.role,
        allRooms: input.allRooms,
        roomIds,
        apiKeyAuth: input.apiKeyAuth,
        name: input.name,
        newAccount: !existing,
      },
    });
    return { membershipId: membership.id, hotelName: membership.hotel.name };
  });
  if (password !== null) {
    // The password is in the job only until it is sent: the job is dropped as soon as it completes.
    // The text names the role the member was added with (a staff member is not told "administrator").
    const template = input.role === 'owner' ? 'staffWelcomeOwner' : input.role === 'admin' ? 'staffWelcome' : 'staffWelcomeStaff';
    await deps.queues.sms.add(
      template,
      { to: input.account, template, params: { hotel: hotelName, account: input.account, password }, lang: meta.lang },
      { ...SMS_JOB_OPTIONS, removeOnComplete: true },
    );
  }
  return { ...(await getStaff(ctx, { id: membershipId })), created: existing === null };
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
