import { z } from 'zod';
import { LIMITS, ROOM_STATUS_CODES, ZGuestInput, ZLocalDateTime, ZPage, fromMinor, toMinor, zInt, zonedToInstant } from '@console/shared';
import type { Actor } from '../../context';
import { AppError } from '../../errors';
import type { RoomDetail, RoomListItem } from '../../modules/room/room-list';
import type { StayBill } from '../../modules/orders/stay-bills';
import type { GuestDto, StayDto } from '../../modules/base/stay-dto';
import { legacyTime } from './format';

/**
 * What legacy clients send and receive: money as decimals in major units (299.5), times as
 * `YYYY-MM-DD HH:mm:ss` in the hotel's time zone, flags as 0/1, snake_case names.
 */
export { ZFlag } from '@console/shared';

const MONEY_MAX_MAJOR = LIMITS.amountMaxMinor / 100;
/** An amount in major units from `min` up: a JSON number or a decimal string (`299.5`); the currency decides the decimals. */
function zLegacyAmount(min: number) {
  const amount = z
    .number({ error: 'validation.priceInvalid' })
    .min(min, { error: 'validation.priceInvalid' })
    .max(MONEY_MAX_MAJOR, { error: 'validation.priceInvalid' });
  return z.union(
    [
      amount,
      z
        .string()
        .regex(min < 0 ? /^-?\d{1,12}(\.\d{1,6})?$/ : /^\d{1,12}(\.\d{1,6})?$/, { error: 'validation.priceInvalid' })
        .transform(Number)
        .pipe(amount),
    ],
    {
      error: (issue) => (issue.input === undefined ? 'validation.priceRequired' : 'validation.priceInvalid'),
    },
  );
}
/** An amount in major units, never negative. */
export const ZLegacyMoney = zLegacyAmount(0);
/** An amount in major units that may be negative (a card terminal's batch counted at a shift's close, refunds beyond takings). */
export const ZLegacySignedMoney = zLegacyAmount(-MONEY_MAX_MAJOR);
/** A time `YYYY-MM-DD HH:mm[:ss]` in the hotel's time zone. */
export const ZLegacyTime = ZLocalDateTime;

/** Paging of every legacy list: `page` (default 1) and `limit` (default 20, at most 100). */
export function zLegacyPaging(defaultLimit: number = LIMITS.pageSizeDefault) {
  return { page: ZPage, limit: zInt({ min: 1, max: LIMITS.pageSizeMax }, 'validation.pageSizeInvalid').default(defaultLimit) };
}

/** A page of a service in the legacy shape `{ list, total, page, limit }`. */
export function legacyPage<T, U>(result: { items: T[]; total: number; page: number; pageSize: number }, map: (item: T) => U) {
  return { list: result.items.map(map), total: result.total, page: result.page, limit: result.pageSize };
}

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
    // The reservation after that stay (added compatibly: a room sold tonight and reserved from tomorrow).
    next_stay_id: r.nextStay?.id ?? null,
    next_guest_name: r.nextStay?.guestName ?? null,
    next_check_in_time: r.nextStay ? legacyTime(r.nextStay.checkInAt, actor.timeZone) : null,
    next_check_out_time: r.nextStay ? legacyTime(r.nextStay.expectedCheckOutAt, actor.timeZone) : null,
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

/** A stay as legacy answers carry it; with its visit's bill when the service read it (the lists: owed and due back in major units). */
export function legacyStay(s: StayDto & { bill?: StayBill }, actor: Actor) {
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
    // Added compatibly (issue 17 §4): a reservation taken at the desk waits for its guest, a no-show
    // from no_show_time; a cancelled one says why (a code: the reservation actions add its text).
    awaits_arrival: s.awaitsArrival ? 1 : 0,
    no_show_time: legacyTime(s.noShowAt, actor.timeZone),
    cancel_reason: s.cancelReason,
    cancel_note: s.cancelNote,
    ...(s.bill ? { bill: { state: s.bill.state, owed: money(s.bill.owed, actor), due_back: money(s.bill.dueBack, actor) } } : {}),
  };
}

const guest = ZGuestInput.shape;
/** Guest fields of the legacy check-in and addPassenger: the shared guest rules under legacy names. */
export const ZLegacyGuest = z.object({
  name: guest.name,
  gender: guest.gender,
  nationality: guest.nationality,
  birth: guest.birthDate,
  id_number: guest.idNumber,
  mobile: guest.mobile,
  email: guest.email,
});

export function guestFromLegacy(g: z.output<typeof ZLegacyGuest>) {
  return { name: g.name, gender: g.gender, nationality: g.nationality, birthDate: g.birth, idNumber: g.id_number, mobile: g.mobile, email: g.email };
}
