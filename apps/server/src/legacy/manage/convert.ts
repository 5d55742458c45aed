import { z } from 'zod';
import { ROOM_STATUS_CODES, fromMinor, toMinor, zonedToInstant } from '@console/shared';
import type { Actor } from '../../context';
import { AppError } from '../../errors';
import type { RoomDetail, RoomListItem } from '../../modules/room/room.service';
import type { GuestDto, StayDto } from '../../modules/stay/stay.service';
import { legacyTime } from './format';

/**
 * What legacy clients send and receive: money as decimals in major units (299.5), times as
 * `YYYY-MM-DD HH:mm:ss` in the hotel's time zone, flags as 0/1, snake_case names.
 */
export const ZFlag = z.union([z.boolean(), z.coerce.number().int().min(0).max(1)]).transform((v) => v === true || v === 1);
export const ZLegacyMoney = z.coerce.number({ error: 'validation.priceInvalid' }).min(0, { error: 'validation.priceInvalid' }).max(100_000_000, { error: 'validation.priceInvalid' });
export const ZLegacyTime = z.string({ error: 'validation.dateTimeInvalid' }).trim().min(1, { error: 'validation.dateTimeRequired' });

export function toMinorOrFail(amount: number, actor: Actor, field: string): number {
  const minor = toMinor(amount, actor.currency);
  if (minor === null) throw new AppError('VALIDATION', { messageKey: 'validation.priceInvalid', fields: { [field]: 'validation.priceInvalid' } });
  return minor;
}

export function money(minor: number | null, actor: Actor): number | null {
  return minor === null ? null : fromMinor(minor, actor.currency);
}

/** A legacy time in the hotel's zone to an instant; a field error when it is not one. */
export function instantOrFail(local: string, actor: Actor, field: string): Date {
  const instant = zonedToInstant(local, actor.timeZone);
  if (!instant) throw new AppError('VALIDATION', { messageKey: 'validation.dateTimeInvalid', fields: { [field]: 'validation.dateTimeInvalid' } });
  return instant;
}

export function legacyRoom(r: RoomListItem | RoomDetail, actor: Actor) {
  const detail = 'description' in r ? r : undefined;
  return {
    id: r.id,
    name: r.name,
    remark_name: r.remarkName,
    category_id: r.groupId,
    category_name: r.groupName,
    picture: r.picture,
    status: ROOM_STATUS_CODES[r.status],
    status_key: r.status,
    self_check_in: r.canSelfCheckIn ? 1 : 0,
    clean_status: r.cleanStatus,
    maintenance: r.maintenance,
    sort: r.sortOrder,
    lock_id: r.lockId,
    lock_power: r.lockPower,
    price: money(r.usualPrice, actor),
    stay_id: r.currentStay?.id ?? null,
    guest_name: r.currentStay?.guestName ?? null,
    check_in_time: r.currentStay ? legacyTime(r.currentStay.checkInAt, actor.timeZone) : null,
    check_out_time: r.currentStay ? legacyTime(r.currentStay.expectedCheckOutAt, actor.timeZone) : null,
    ...(detail
      ? {
          description: detail.description,
          bulletin_board: detail.lockNotice,
          notice: detail.notice,
          bluetooth_name: detail.bluetoothName,
          mac_id: detail.macId,
          deposit: money(detail.depositAmount, actor),
          weekend_price: money(detail.weekendPrice, actor),
          renewal_price: money(detail.renewalPrice, actor),
        }
      : {}),
  };
}

export function legacyGuest(g: GuestDto) {
  return {
    manage_id: g.id,
    name: g.name,
    gender: g.gender,
    nationality: g.nationality,
    birth: g.birthDate,
    id_number: g.idNumber,
    mobile: g.mobile,
    email: g.email,
    is_primary: g.isPrimary ? 1 : 0,
  };
}

export function legacyStay(s: StayDto, actor: Actor) {
  return {
    id: s.id,
    room_id: s.roomId,
    room_name: s.roomName,
    state: s.state,
    check_in_time: legacyTime(s.checkInAt, actor.timeZone),
    check_out_time: legacyTime(s.expectedCheckOutAt, actor.timeZone),
    checked_out_time: legacyTime(s.checkedOutAt, actor.timeZone),
    time_unit: s.lengthUnit,
    breakfast: s.breakfast ? 1 : 0,
    disable_old_cards: s.disableOldCards ? 1 : 0,
    id_card_unlock: s.idCardUnlock ? 1 : 0,
    deposit: money(s.depositAmount, actor),
    price: money(s.priceAmount, actor),
    other_information: s.remark,
    moved_from: s.movedFromStayId,
    moved_to: s.movedToStayId,
    guests: s.guests.map(legacyGuest),
  };
}

/** Guest fields of the legacy check-in and addPassenger. */
export const ZLegacyGuest = z.object({
  name: z.string({ error: 'validation.guestNameRequired' }),
  gender: z.enum(['male', 'female', 'unknown']).optional(),
  nationality: z.string().optional(),
  birth: z.string().nullish(),
  id_number: z.string().nullish(),
  mobile: z.string().nullish(),
  email: z.string().nullish(),
});

export function guestFromLegacy(g: z.output<typeof ZLegacyGuest>) {
  return { name: g.name, gender: g.gender, nationality: g.nationality, birthDate: g.birth || null, idNumber: g.id_number || null, mobile: g.mobile || null, email: g.email || null };
}
