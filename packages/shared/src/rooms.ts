import { z } from 'zod';
import { LIMITS } from './limits';
import { WHEN_FIELDS_VALID, oneLine, ZId, ZInstant, ZPageInput, ZSearch, zInt, zOptionalCode, zOptionalText, zPageSize } from './primitives';
import { blankToUndefined } from './validation';

/**
 * Rooms and their groups (spec §3-§4), shared by the web console and the server: a room's status
 * (ARCHITECTURE.md: derived from occupancy, cleanliness and maintenance), the room list, a room's
 * fields and its lock's, status changes, groups.
 */

// ---------------------------------------------------------------------------------------------
// Room status (ARCHITECTURE.md: derived from occupancy, cleanliness and maintenance)

/** The five statuses of spec §4, in the order of the status filter. */
export const ROOM_STATUSES = ['vacant', 'reserved', 'checked_in', 'dirty', 'maintain'] as const;
export type TRoomStatus = (typeof ROOM_STATUSES)[number];
/** Numeric codes of the legacy protocol. */
export const ROOM_STATUS_CODES: Record<TRoomStatus, number> = { vacant: 1, reserved: 2, checked_in: 3, dirty: 4, maintain: 5 };

export const CLEAN_STATUSES = ['clean', 'dirty', 'inspected'] as const;
export type TCleanStatus = (typeof CLEAN_STATUSES)[number];
export const MAINTENANCE_STATUSES = ['none', 'out_of_order', 'out_of_service'] as const;
export type TMaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

/** Spec §4: a Dirty room (or one under maintenance or taken) cannot be self checked-in. */
export function canSelfCheckIn(status: TRoomStatus): boolean {
  return status === 'vacant';
}

/** A status change asked for at the front desk: housekeeping and maintenance, never occupancy. */
export const ROOM_STATUS_TARGETS = ['clean', 'inspected', 'dirty', 'out_of_order', 'out_of_service', 'back_in_service'] as const;
export type TRoomStatusTarget = (typeof ROOM_STATUS_TARGETS)[number];

// Sort options of spec §4: A-Z, Z-A, default, order, reverse order.
export const ROOM_SORTS = ['default', 'name_asc', 'name_desc', 'order', 'order_desc'] as const;
export type TRoomSort = (typeof ROOM_SORTS)[number];

export const ROOM_PAGE_SIZE_DEFAULT = 50;

export const ZRoomListInput = ZPageInput.extend({
  pageSize: zPageSize(ROOM_PAGE_SIZE_DEFAULT),
  status: z.enum(ROOM_STATUSES, { error: 'validation.stateInvalid' }).optional(),
  search: ZSearch.optional(),
  groupId: ZId.optional(),
  sort: z.enum(ROOM_SORTS, { error: 'validation.sortInvalid' }).default('default'),
  /**
   * Only rooms free over [freeFrom, freeTo): no stay held over any of it, not under maintenance nor out
   * of order on its days (the room-change picker: a room booked on the stay's nights is not offered).
   */
  freeFrom: ZInstant.optional(),
  freeTo: ZInstant.optional(),
});
export type TRoomListInput = z.input<typeof ZRoomListInput>;

// ---------------------------------------------------------------------------------------------
// Rooms and groups

const ROOM_MAX = LIMITS.roomFieldMax;

export const MAC_ID_REGEX = /^([0-9A-Fa-f]{2}[:-]?){5}[0-9A-Fa-f]{2}$/;

export const ZRoomInput = z.object({
  /** One line: the name is written into the room's exported calendar, lock records and messages. */
  name: oneLine(
    z
      .string({ error: 'validation.roomNameRequired' })
      .trim()
      .min(1, { error: 'validation.roomNameRequired' })
      .max(ROOM_MAX.name, { error: 'validation.textTooLong' }),
  ),
  groupId: ZId.nullish().transform((v) => v ?? null),
  picture: z
    .string({ error: 'validation.pictureInvalid' })
    .trim()
    .max(ROOM_MAX.picture, { error: 'validation.pictureInvalid' })
    .refine((v) => v === '' || v.startsWith('/uploads/') || /^https:\/\//.test(v), { error: 'validation.pictureInvalid', ...WHEN_FIELDS_VALID })
    .nullish()
    .transform((v) => (v ? v : null)),
  remarkName: zOptionalText(ROOM_MAX.remarkName),
  description: zOptionalText(ROOM_MAX.description),
  lockNotice: zOptionalText(ROOM_MAX.lockNotice),
  notice: zOptionalText(ROOM_MAX.notice),
  lockId: zOptionalCode(ROOM_MAX.lockId),
  bluetoothName: zOptionalCode(ROOM_MAX.bluetoothName),
  macId: zOptionalCode(ROOM_MAX.macId).refine((v) => v === null || MAC_ID_REGEX.test(v), { error: 'validation.macIdInvalid', ...WHEN_FIELDS_VALID }),
  sortOrder: z.preprocess(blankToUndefined, zInt({ min: -LIMITS.sortOrderMax, max: LIMITS.sortOrderMax }, 'validation.sortOrderInvalid').default(0)),
});
export type TRoomInput = z.input<typeof ZRoomInput>;
export const ZRoomUpdateInput = ZRoomInput.extend({ id: ZId });
export const ZRoomIdInput = z.object({ roomId: ZId });

/** The lock of a room as the front desk records it; the battery level is reported by the lock, never typed. */
export const ZLockDataInput = z.object({
  roomId: ZId,
  lockId: ZRoomInput.shape.lockId,
  bluetoothName: ZRoomInput.shape.bluetoothName,
  macId: ZRoomInput.shape.macId,
});

export const ZRoomStatusInput = z.object({ roomId: ZId, target: z.enum(ROOM_STATUS_TARGETS, { error: 'validation.stateInvalid' }) });
/** The same status change for several rooms at once (housekeeping marks a floor clean). */
export const ZRoomsStatusInput = z.object({
  roomIds: z
    .array(ZId, { error: 'validation.roomsInvalid' })
    .min(1, { error: 'validation.roomsInvalid' })
    .max(LIMITS.pageSizeMax, { error: 'validation.roomsInvalid' }),
  target: ZRoomStatusInput.shape.target,
});
/** A lock's battery level as the lock reports it (over Bluetooth through a legacy app, or its cloud). */
export const ZLockPowerReport = z.object({ roomId: ZId, lockPower: zInt({ min: 0, max: 100 }, 'validation.lockPowerInvalid') });

export const ZRoomGroupInput = z.object({
  name: oneLine(
    z
      .string({ error: 'validation.groupNameRequired' })
      .trim()
      .min(1, { error: 'validation.groupNameRequired' })
      .max(LIMITS.groupNameMaxLength, { error: 'validation.textTooLong' }),
  ),
  sort: z.preprocess(blankToUndefined, zInt({ min: 0, max: LIMITS.sortOrderMax }, 'validation.groupSortRequired')),
});
export const ZRoomGroupUpdateInput = ZRoomGroupInput.extend({ id: ZId });
/** Deleting a group that still has rooms needs to know where they go (another group, or none). */
export const ZRoomGroupDeleteInput = z.object({ id: ZId, moveRoomsTo: z.union([ZId, z.literal('none')]).optional() });
