import { ZHousekeepingSettingsInput, ZShiftInput, addDays, zonedToInstant, type TAttendant } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { recordEvent } from '../../db/events';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { noteRotaChange } from './attendant-access';
import { asDate, memberName } from './task-shape';
import { findAttendant } from './tasks';

/** An attendant's shift of a day and the hotel's housekeeping rules. */

export async function setShift(ctx: AuthedContext, raw: z.input<typeof ZShiftInput>): Promise<TAttendant> {
  requirePermission(ctx.actor, 'housekeeping.manage');
  const input = ZShiftInput.parse(raw);
  const { hotelId, timeZone } = ctx.actor;
  const member = await findAttendant(ctx, input.membershipId);
  const startsAt = zonedToInstant(`${input.day}T${input.start}`, timeZone);
  const endDay = input.end <= input.start ? addDays(input.day, 1) : input.day;
  const endsAt = zonedToInstant(`${endDay}T${input.end}`, timeZone);
  if (!startsAt || !endsAt || endsAt <= startsAt) throw new AppError('VALIDATION', { messageKey: 'housekeeping.validation.timeInvalid' });
  await transaction(ctx.deps, async (tx) => {
    await tx.attendantShift.upsert({
      where: { hotelId_membershipId_day: { hotelId, membershipId: member.id, day: asDate(input.day) } },
      create: { hotelId, membershipId: member.id, day: asDate(input.day), startsAt, endsAt },
      update: { startsAt, endsAt },
    });
    await recordEvent(tx, { hotelId, kind: 'housekeeping.changed', roomIds: [], membershipId: member.id });
    noteRotaChange(tx, ctx, { hotelId, day: input.day, membershipIds: [member.id] });
    await recordAudit(tx, ctx, { action: 'housekeeping.shift', entityType: 'Membership', entityId: member.id, after: { ...input } });
  });
  return {
    membershipId: member.id,
    name: memberName(member),
    role: 'housekeeping',
    shift: { start: input.start, end: input.end, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() },
  };
}

/** The hotel's stay-over rule and the hour its day's tasks are made. */
export async function setHousekeepingSettings(ctx: AuthedContext, raw: z.input<typeof ZHousekeepingSettingsInput>) {
  requirePermission(ctx.actor, 'housekeeping.manage');
  const input = ZHousekeepingSettingsInput.parse(raw);
  await transaction(ctx.deps, async (tx) => {
    await tx.hotel.update({
      where: { id: ctx.actor.hotelId },
      data: { stayoverRule: input.stayoverRule, stayoverEveryDays: input.stayoverEveryDays, housekeepingDayStart: input.dayStart },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'housekeeping.changed', roomIds: [] });
    await recordAudit(tx, ctx, { action: 'housekeeping.settings', entityType: 'Hotel', entityId: ctx.actor.hotelId, after: { ...input } });
  });
  return input;
}

/**
 * A room marked clean or inspected by hand (the console's `room.setStatus`, the legacy
 * `room/setRoomStatus`: `setRoomsStatus`): today's open cleaning tasks of those rooms follow, done
 * or inspected, so the supervisor's page and the attendant's phone agree with the desk. A task
 * reported for maintenance is left as it is.
 */
