import { randomInt } from 'node:crypto';
import { ZStaffAddInput, isMobile, type TStaffAddInput } from '@console/shared';
import type { AuthedContext } from '../../context';
import { recordEvent } from '../../db/events';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { SMS_JOB_OPTIONS } from '../../jobs/queues';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { hashPassword } from '../auth/password';
import { checkRooms, getStaff, ownerOnly, type StaffDto } from './staff.service';

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
      // The password sent by SMS is not the member's own: changed at the first sign-in (issue 39 §7).
      existing ??
      (await tx.account.create({
        data: { mobile: input.account, nickname: input.name, passwordHash: passwordHash!, mustChangePassword: true },
        select: { id: true },
      }));
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
