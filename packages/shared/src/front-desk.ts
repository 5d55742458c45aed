import { z } from 'zod';
import { LIMITS } from './limits';
import { LOCAL_DATE_REGEX } from './time';
import { ZId, ZPageInput, ZSearch, blankToUndefined } from './validation';

/**
 * Rooms, stays, guests and prices: the rules of spec §3-§5 shared by the web console and the
 * server. Money fields are integers in minor units; the forms convert (money.ts).
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
  pageSize: ZPageInput.shape.pageSize.default(ROOM_PAGE_SIZE_DEFAULT),
  status: z.enum(ROOM_STATUSES, { error: 'validation.stateInvalid' }).optional(),
  search: ZSearch.optional(),
  groupId: ZId.optional(),
  sort: z.enum(ROOM_SORTS, { error: 'validation.sortInvalid' }).default('default'),
});
export type TRoomListInput = z.input<typeof ZRoomListInput>;

// ---------------------------------------------------------------------------------------------
// Rooms and groups

const optionalText = (max: number) => z.string().trim().max(max, { error: 'validation.textTooLong' }).default('');
const optionalCode = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: 'validation.textTooLong' })
    .nullish()
    .transform((v) => (v ? v : null));

export const MAC_ID_REGEX = /^([0-9A-Fa-f]{2}[:-]?){5}[0-9A-Fa-f]{2}$/;

export const ZRoomInput = z.object({
  name: z.string({ error: 'validation.roomNameRequired' }).trim().min(1, { error: 'validation.roomNameRequired' }).max(32, { error: 'validation.textTooLong' }),
  groupId: ZId.nullish().transform((v) => v ?? null),
  picture: z
    .string()
    .trim()
    .max(500)
    .refine((v) => v === '' || v.startsWith('/uploads/') || /^https:\/\//.test(v), { error: 'validation.pictureInvalid' })
    .nullish()
    .transform((v) => (v ? v : null)),
  remarkName: optionalText(64),
  description: optionalText(1000),
  lockNotice: optionalText(200),
  notice: optionalText(500),
  lockId: optionalCode(64),
  bluetoothName: optionalCode(64),
  lockPower: z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: 'validation.lockPowerInvalid' }).int({ error: 'validation.lockPowerInvalid' }).min(0, { error: 'validation.lockPowerInvalid' }).max(100, { error: 'validation.lockPowerInvalid' }).optional(),
  ).transform((v) => v ?? null),
  macId: optionalCode(17).refine((v) => v === null || MAC_ID_REGEX.test(v), { error: 'validation.macIdInvalid' }),
  sortOrder: z.preprocess(blankToUndefined, z.coerce.number({ error: 'validation.sortOrderInvalid' }).int({ error: 'validation.sortOrderInvalid' }).min(-1_000_000).max(1_000_000).default(0)),
});
export type TRoomInput = z.input<typeof ZRoomInput>;
export const ZRoomUpdateInput = ZRoomInput.extend({ id: ZId });

export const ZLockDataInput = z.object({
  roomId: ZId,
  lockId: ZRoomInput.shape.lockId,
  bluetoothName: ZRoomInput.shape.bluetoothName,
  macId: ZRoomInput.shape.macId,
  lockPower: ZRoomInput.shape.lockPower,
});

export const ZRoomStatusInput = z.object({ roomId: ZId, target: z.enum(ROOM_STATUS_TARGETS, { error: 'validation.stateInvalid' }) });

export const ZRoomGroupInput = z.object({
  name: z.string({ error: 'validation.groupNameRequired' }).trim().min(1, { error: 'validation.groupNameRequired' }).max(32, { error: 'validation.textTooLong' }),
  sort: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'validation.groupSortRequired' })
      .int({ error: 'validation.groupSortRequired' })
      .min(0, { error: 'validation.groupSortRequired' })
      .max(1_000_000, { error: 'validation.groupSortRequired' }),
  ),
});
export const ZRoomGroupUpdateInput = ZRoomGroupInput.extend({ id: ZId });
/** Deleting a group that still has rooms needs to know where they go (another group, or none). */
export const ZRoomGroupDeleteInput = z.object({ id: ZId, moveRoomsTo: z.union([ZId, z.literal('none')]).optional() });

// ---------------------------------------------------------------------------------------------
// Prices (integers in minor units; the service checks "not less than 1" in the hotel's currency)

export const ZMinorAmount = z.preprocess(
  blankToUndefined,
  z.coerce.number({ error: 'validation.priceRequired' }).int({ error: 'validation.priceInvalid' }).min(0, { error: 'validation.priceInvalid' }).max(100_000_000_00, { error: 'validation.priceInvalid' }),
);
export const ZLocalDate = z.string({ error: 'validation.dateInvalid' }).regex(LOCAL_DATE_REGEX, { error: 'validation.dateInvalid' });

export const ZDatePrice = z.object({ date: ZLocalDate, price: ZMinorAmount });
const ZRates = z.object({
  depositAmount: ZMinorAmount.default(0),
  usualPrice: ZMinorAmount,
  weekendPrice: ZMinorAmount.nullish().transform((v) => v ?? null),
  renewalPrice: ZMinorAmount.nullish().transform((v) => v ?? null),
  datePrices: z
    .array(ZDatePrice)
    .max(366, { error: 'validation.tooManyDates' })
    .default([])
    .refine((list) => new Set(list.map((p) => p.date)).size === list.length, { error: 'validation.duplicateDate' }),
});
export const ZRoomPriceInput = ZRates.extend({ roomId: ZId });
export type TRoomPriceInput = z.input<typeof ZRoomPriceInput>;
export const ZPriceTemplateInput = ZRates.extend({
  name: z.string({ error: 'validation.templateNameRequired' }).trim().min(1, { error: 'validation.templateNameRequired' }).max(32, { error: 'validation.textTooLong' }),
});
export type TPriceTemplateInput = z.input<typeof ZPriceTemplateInput>;
export const ZApplyPriceTemplateInput = z
  .object({ templateId: ZId, roomIds: z.array(ZId).max(10_000).optional(), groupId: ZId.optional() })
  .refine((v) => (v.roomIds?.length ?? 0) > 0 || v.groupId !== undefined, { error: 'validation.templateTargetRequired', path: ['roomIds'] });

// ---------------------------------------------------------------------------------------------
// Stays and guests

export const STAY_STATES = ['reserved', 'in_house', 'expired', 'moved', 'checked_out', 'ended'] as const;
export type TStayState = (typeof STAY_STATES)[number];
/** States in which a stay holds its room (the exclusion constraint covers them). */
export const ACTIVE_STAY_STATES = ['reserved', 'in_house', 'expired'] as const satisfies readonly TStayState[];
export const STAY_LENGTH_UNITS = ['hour', 'day', 'month', 'year'] as const;
export type TStayLengthUnit = (typeof STAY_LENGTH_UNITS)[number];
export const GENDERS = ['male', 'female', 'unknown'] as const;

/** Warnings a check-in asks the user to confirm before it goes ahead. */
export const CHECK_IN_WARNINGS = ['guest_in_other_room', 'room_dirty'] as const;
export type TCheckInWarning = (typeof CHECK_IN_WARNINGS)[number];

const ZInstant = z.coerce.date({ error: 'validation.dateTimeInvalid' }).refine((d) => !Number.isNaN(d.getTime()), { error: 'validation.dateTimeInvalid' });

export const ZGuestInput = z.object({
  name: z.string({ error: 'validation.guestNameRequired' }).trim().min(1, { error: 'validation.guestNameRequired' }).max(64, { error: 'validation.textTooLong' }),
  gender: z.enum(GENDERS).default('unknown'),
  nationality: optionalText(64),
  birthDate: ZLocalDate.nullish().transform((v) => v ?? null),
  idNumber: optionalCode(32),
  mobile: z
    .string()
    .trim()
    .max(20)
    .refine((v) => v === '' || /^\+?[0-9 -]{5,20}$/.test(v), { error: 'validation.phoneInvalid' })
    .nullish()
    .transform((v) => (v ? v.replace(/[ -]/g, '') : null)),
  email: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === '' || z.email().safeParse(v).success, { error: 'validation.emailFormat' })
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null)),
});
export type TGuestInput = z.input<typeof ZGuestInput>;

const stayPeriod = { checkInAt: ZInstant, expectedCheckOutAt: ZInstant };
const minStayRule = <T extends { checkInAt: Date; expectedCheckOutAt: Date }>(v: T) =>
  v.expectedCheckOutAt.getTime() - v.checkInAt.getTime() >= LIMITS.minStayHours * 3_600_000;

export const PRICE_MODES = ['computed', 'fixed'] as const;

export const ZCheckInInput = z
  .object({
    roomId: ZId,
    ...stayPeriod,
    lengthUnit: z.enum(STAY_LENGTH_UNITS).default('day'),
    breakfast: z.boolean().default(false),
    guests: z.array(ZGuestInput).min(1, { error: 'validation.guestRequired' }).max(10, { error: 'validation.tooManyGuests' }),
    disableOldCards: z.boolean().default(false),
    idCardUnlock: z.boolean().default(false),
    priceMode: z.enum(PRICE_MODES).default('computed'),
    fixedPrice: ZMinorAmount.optional(),
    depositAmount: ZMinorAmount.default(0),
    remark: optionalText(500),
    /** Sent with every attempt of one check-in: a retry or a double click makes no second stay. */
    idempotencyKey: z.string().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/),
    acknowledge: z.array(z.enum(CHECK_IN_WARNINGS)).default([]),
  })
  .refine(minStayRule, { error: 'validation.checkOutAfterCheckIn', path: ['expectedCheckOutAt'] })
  .refine((v) => v.priceMode !== 'fixed' || v.fixedPrice !== undefined, { error: 'validation.priceRequired', path: ['fixedPrice'] });
export type TCheckInInput = z.input<typeof ZCheckInInput>;

export const ZQuoteInput = z
  .object({ roomId: ZId, ...stayPeriod, kind: z.enum(['stay', 'renewal']).default('stay') })
  .refine(minStayRule, { error: 'validation.checkOutAfterCheckIn', path: ['expectedCheckOutAt'] });

export const ZRenewInput = z
  .object({ stayId: ZId, expectedCheckOutAt: ZInstant, priceMode: z.enum(PRICE_MODES).default('computed'), fixedPrice: ZMinorAmount.optional() })
  .refine((v) => v.priceMode !== 'fixed' || v.fixedPrice !== undefined, { error: 'validation.priceRequired', path: ['fixedPrice'] });
export type TRenewInput = z.input<typeof ZRenewInput>;

export const ZChangeRoomInput = z.object({ stayId: ZId, targetRoomId: ZId });
export const ZStayIdInput = z.object({ stayId: ZId });
export const ZAddGuestInput = z.object({ stayId: ZId, guest: ZGuestInput });
export const ZRemoveGuestInput = z.object({ stayId: ZId, guestId: ZId });

/** Tenant list filters (spec: state, dates, room, guest). `current` = reserved, in house or expired. */
export const STAY_FILTERS = ['all', 'current', ...STAY_STATES] as const;
export const ZStayListInput = ZPageInput.extend({
  state: z.enum(STAY_FILTERS, { error: 'validation.stateInvalid' }).default('all'),
  from: ZLocalDate.optional(),
  to: ZLocalDate.optional(),
  roomId: ZId.optional(),
  guest: ZSearch.optional(),
}).refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'validation.endAfterStart', path: ['to'] });
export type TStayListInput = z.input<typeof ZStayListInput>;

export const ZBreakfastListInput = z.object({ date: ZLocalDate });
export const ZBreakfastServeInput = z.object({ stayId: ZId, date: ZLocalDate, guests: z.coerce.number().int().min(1).max(20).optional() });

export const QUICK_RANGES = ['today', 'yesterday', 'week'] as const;
export const ZUnlockRecordListInput = ZPageInput.extend({
  roomId: ZId,
  from: ZLocalDate.optional(),
  to: ZLocalDate.optional(),
}).refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'validation.endAfterStart', path: ['to'] });
