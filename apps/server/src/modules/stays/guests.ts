import { ACTIVE_STAY_STATES, LIMITS, ZAddGuestInput, ZGuestIdInput, ZGuestListInput, ZRemoveGuestInput, type TGuestListInput } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { containsExactly, containsText, searchText } from '../../db/search';
import { lockRow, transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { roomScope } from '../base/room-access';
import { followCredentials } from '../credentials/delivery';
import { revokeStayCredentials } from '../credentials/revocation';
import { effectiveState, findStay, guestData, guestSelect, requireActive, toGuestDto, toStayDto, type GuestDto, type StayDto } from '../base/stay-dto';
import { recordEvent } from '../../db/events';
import { withBills, type StayBill } from '../orders/stay-bills';

/** Adds a co-guest to an active stay (at most LIMITS.guestsPerStayMax guests, counted under the stay's lock). */
export async function addGuest(ctx: AuthedContext, raw: z.input<typeof ZAddGuestInput>): Promise<StayDto> {
  requirePermission(ctx.actor, 'stay.manage');
  const input = ZAddGuestInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  requireActive(stay, new Date());
  await transaction(ctx.deps, async (tx) => {
    await lockRow(tx, 'Stay', ctx.actor.hotelId, stay.id);
    const count = await tx.stayGuest.count({ where: { hotelId: ctx.actor.hotelId, stayId: stay.id } });
    if (count >= LIMITS.guestsPerStayMax) throw new AppError('CONFLICT', { messageKey: 'validation.tooManyGuests', params: { max: LIMITS.guestsPerStayMax } });
    const guest = await tx.stayGuest.create({
      data: guestData(ctx.actor.hotelId, stay.id, input.guest, false) as Prisma.StayGuestUncheckedCreateInput,
      select: { id: true },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'stay.changed', roomIds: [stay.roomId], stayId: stay.id });
    await recordAudit(tx, ctx, { action: 'stay.addGuest', entityType: 'Stay', entityId: stay.id, after: { guestId: guest.id, name: input.guest.name } });
  });
  return toStayDto(await findStay(ctx, stay.id));
}

/** Removes a co-guest; their credentials are queued for removal. The primary guest stays. */
export async function removeGuest(ctx: AuthedContext, raw: z.input<typeof ZRemoveGuestInput>): Promise<StayDto> {
  requirePermission(ctx.actor, 'stay.manage');
  const input = ZRemoveGuestInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  requireActive(stay, new Date());
  const guest = stay.guests.find((g) => g.id === input.guestId);
  if (!guest) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.guestNotFound' });
  if (guest.isPrimary) throw new AppError('CONFLICT', { messageKey: 'stay.errors.cannotRemovePrimary' });
  await transaction(ctx.deps, async (tx) => {
    await lockRow(tx, 'Stay', ctx.actor.hotelId, stay.id);
    const revoked = await revokeStayCredentials(tx, ctx.actor.hotelId, { guestId: guest.id }, 'guest_removed');
    const detach = { hotelId: ctx.actor.hotelId, guestId: guest.id };
    await tx.cardGrant.updateMany({ where: detach, data: { guestId: null } });
    await tx.lockPassword.updateMany({ where: detach, data: { guestId: null } });
    await tx.fingerprint.updateMany({ where: detach, data: { guestId: null } });
    await tx.face.updateMany({ where: detach, data: { guestId: null } });
    const deleted = await tx.stayGuest.deleteMany({ where: { id: guest.id, hotelId: ctx.actor.hotelId } });
    if (deleted.count === 0) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.guestNotFound' });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'stay.changed', roomIds: [stay.roomId], stayId: stay.id });
    followCredentials(tx, ctx.deps, ctx.actor.hotelId, { stayId: stay.id });
    await recordAudit(tx, ctx, {
      action: 'stay.removeGuest',
      entityType: 'Stay',
      entityId: stay.id,
      before: toGuestDto(guest) as unknown as Prisma.InputJsonValue,
      after: { revokedCredentials: revoked },
    });
  });
  return toStayDto(await findStay(ctx, stay.id));
}

/** A guest (the spec's `manage_id`) with their stay: the guest detail page and `passenger/info`. */
export async function getGuest(
  ctx: AuthedContext,
  raw: z.input<typeof ZGuestIdInput>,
): Promise<{ guest: GuestDto; stay: StayDto & { bill: StayBill; visitCheckInAt: string } }> {
  requirePermission(ctx.actor, 'room.read');
  const { guestId } = ZGuestIdInput.parse(raw);
  const guest = await ctx.deps.prisma.stayGuest.findFirst({
    where: { id: guestId, hotelId: ctx.actor.hotelId, stay: { room: roomScope(ctx.actor) } },
    select: { ...guestSelect, stayId: true },
  });
  if (!guest) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.guestNotFound' });
  const { stayId, ...rest } = guest;
  // With its visit's bill: the deposit the page shows is the one the folio holds.
  const [stay] = await withBills(ctx.deps.prisma, ctx.actor.hotelId, [toStayDto(await findStay(ctx, stayId))]);
  // When the guest's visit began: after a room change this stay begins at the move (issue 39 §10).
  const first =
    stay!.visitStayId === stay!.id
      ? null
      : await ctx.deps.prisma.stay.findFirst({ where: { hotelId: ctx.actor.hotelId, id: stay!.visitStayId }, select: { checkInAt: true } });
  return { guest: toGuestDto(rest), stay: { ...stay!, visitCheckInAt: first?.checkInAt.toISOString() ?? stay!.checkInAt } };
}

/** Name, mobile or ID number of a guest contains the search text (literally). */
export function guestMatches(search: string): Prisma.StayGuestWhereInput {
  return { OR: [{ name: containsText(search) }, { mobile: containsExactly(search) }, { idNumber: containsText(search) }] };
}

/** Guests of the hotel's stays, newest first (`passenger/list`). */
export async function listGuests(ctx: AuthedContext, raw: TGuestListInput) {
  requirePermission(ctx.actor, 'room.read');
  const input = ZGuestListInput.parse(raw);
  const search = searchText(input.search);
  const where: Prisma.StayGuestWhereInput = {
    hotelId: ctx.actor.hotelId,
    stay: { room: roomScope(ctx.actor), ...(input.currentOnly ? { status: { in: [...ACTIVE_STAY_STATES] } } : {}) },
    ...(search ? guestMatches(search) : {}),
  };
  const now = new Date();
  const [total, rows] = await Promise.all([
    ctx.deps.prisma.stayGuest.count({ where }),
    ctx.deps.prisma.stayGuest.findMany({
      where,
      select: {
        ...guestSelect,
        stay: {
          select: {
            id: true,
            roomId: true,
            status: true,
            checkInAt: true,
            expectedCheckOutAt: true,
            awaitsArrival: true,
            noShowAt: true,
            room: { select: { name: true } },
          },
        },
      },
      orderBy: [{ stay: { checkInAt: 'desc' } }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
  ]);
  return {
    items: rows.map(({ stay, ...g }) => ({
      ...toGuestDto(g),
      stayId: stay.id,
      roomId: stay.roomId,
      roomName: stay.room.name,
      state: effectiveState(stay, now),
      checkInAt: stay.checkInAt.toISOString(),
      expectedCheckOutAt: stay.expectedCheckOutAt.toISOString(),
    })),
    total,
    page: input.page,
    pageSize: input.pageSize,
  };
}
