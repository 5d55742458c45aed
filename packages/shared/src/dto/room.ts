import { z } from 'zod';
import { CLEAN_STATUSES, MAINTENANCE_STATUSES, ROOM_STATUSES } from '../rooms';
import { UNLOCK_STYLES } from '../unlock-records';
import { HOUSEKEEPING_TASK_KINDS, HOUSEKEEPING_TASK_STATUSES } from '../housekeeping';
import { ZOk } from './common';

/** Today's housekeeping task of a room (docs/housekeeping.md), shown on the board's tile; null: none. */
export const ZRoomHousekeeping = z
  .object({ status: z.enum(HOUSEKEEPING_TASK_STATUSES), kind: z.enum(HOUSEKEEPING_TASK_KINDS), assigneeName: z.string().nullable() })
  .nullable();

export const ZCurrentStay = z.object({
  id: z.number(),
  status: z.string(),
  checkInAt: z.string(),
  expectedCheckOutAt: z.string(),
  guestName: z.string().nullable(),
  guestCount: z.number(),
  owed: z.number(),
  awaitsArrival: z.boolean(),
  noShowAt: z.string().nullable(),
  /** A reservation within a day whose credentials are not on the lock: the tile warns, with "fix now". */
  keyNotReady: z.boolean(),
});
export type TCurrentStay = z.infer<typeof ZCurrentStay>;

export const ZRoomDetail = z.object({
  description: z.string(),
  lockNotice: z.string(),
  notice: z.string(),
  bluetoothName: z.string().nullable(),
  macId: z.string().nullable(),
  depositAmount: z.number(),
  weekendPrice: z.number().nullable(),
  renewalPrice: z.number().nullable(),
  priceTemplateId: z.number().nullable(),
  id: z.number(),
  name: z.string(),
  remarkName: z.string(),
  groupId: z.number().nullable(),
  groupName: z.string().nullable(),
  picture: z.string().nullable(),
  status: z.enum(ROOM_STATUSES),
  cleanStatus: z.enum(CLEAN_STATUSES),
  maintenance: z.enum(MAINTENANCE_STATUSES),
  housekeeping: ZRoomHousekeeping,
  canSelfCheckIn: z.boolean(),
  sortOrder: z.number(),
  lockId: z.string().nullable(),
  lockPower: z.number().nullable(),
  lock: z
    .object({
      online: z.boolean().nullable(),
      battery: z.number().nullable(),
      lastSeenAt: z.string().nullable(),
      simulated: z.boolean(),
      gone: z.boolean(),
      /**
       * What the lock takes: chosen codes (online), generated codes (offline), faces, room cards; `noZero`: its keypad has no 0 key (a Nuki Keypad);
       * `encodedCards`: a hotel card system's door (Seam `acs`), whose cards are encoded at the desk on the system's encoder.
       */
      takes: z.object({
        onlineCodes: z.boolean(),
        offlineCodes: z.boolean(),
        faces: z.boolean(),
        cards: z.boolean(),
        noZero: z.boolean(),
        encodedCards: z.boolean(),
      }),
    })
    .nullable(),
  usualPrice: z.number(),
  currentStay: ZCurrentStay.nullable(),
  nextStay: ZCurrentStay.nullable(),
});
export type TRoomDetail = z.infer<typeof ZRoomDetail>;

export const ZRoomsStatusResult = z.object({
  rooms: z.number(),
  changed: z.array(z.number()),
  unchanged: z.array(z.object({ id: z.number(), name: z.string() })),
  notice: z.string().nullable(),
});
export type TRoomsStatusResult = z.infer<typeof ZRoomsStatusResult>;

/** A page of unlock records (a room's, or a person's across rooms). */
export const ZUnlockRecordPage = z.object({
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
  totalCapped: z.boolean(),
  items: z.array(
    z.object({
      id: z.number(),
      roomId: z.number(),
      roomName: z.string(),
      occurredAt: z.string(),
      event: z.enum(['other', 'opened', 'open_refused', 'locked', 'tamper_alarm', 'keypad_locked_out']),
      source: z.enum(['lock', 'gateway', 'console', 'other', 'cloud', 'app']),
      device: z.string(),
      success: z.boolean(),
      style: z.enum(UNLOCK_STYLES),
      operator: z.string(),
      credential: z.string().nullable(),
      reason: z.string().nullable(),
      /** The stay whose credential it was, when the record names one (a shared door's records do). */
      stayId: z.number().nullable(),
      /** A shared door's record: the door; null for the room's own lock. */
      door: z.object({ lockId: z.number(), name: z.string() }).nullable(),
    }),
  ),
});

export const ZRoomGroupDto = z.object({ id: z.number(), name: z.string(), sort: z.number(), roomCount: z.number() });
export type TRoomGroupDto = z.infer<typeof ZRoomGroupDto>;

export const ZRoomListOutput = z.object({
  items: z.array(
    z.object({
      currentStay: ZCurrentStay.nullable(),
      nextStay: ZCurrentStay.nullable(),
      lock: z
        .object({
          online: z.boolean().nullable(),
          battery: z.number().nullable(),
          lastSeenAt: z.string().nullable(),
          simulated: z.boolean(),
          gone: z.boolean(),
        })
        .nullable(),
      name: z.string(),
      id: z.number(),
      status: z.enum(ROOM_STATUSES),
      lockId: z.string().nullable(),
      groupId: z.number().nullable(),
      picture: z.string().nullable(),
      remarkName: z.string(),
      lockPower: z.number().nullable(),
      sortOrder: z.number(),
      cleanStatus: z.enum(CLEAN_STATUSES),
      maintenance: z.enum(MAINTENANCE_STATUSES),
      housekeeping: ZRoomHousekeeping,
      usualPrice: z.number(),
      groupName: z.string().nullable(),
      canSelfCheckIn: z.boolean(),
    }),
  ),
  total: z.number(),
  counts: z.object({ reserved: z.number(), dirty: z.number(), vacant: z.number(), checked_in: z.number(), maintain: z.number() }),
  page: z.number(),
  pageSize: z.number(),
});
export const ZRoomGetOutput = ZRoomDetail;
export const ZRoomCreateOutput = ZRoomDetail;
export const ZRoomUpdateOutput = ZRoomDetail;
export const ZRoomDeleteOutput = ZOk;
export const ZRoomSetStatusOutput = z.object({
  ...ZRoomDetail.shape,
  hasChanged: z.boolean(),
  statusNotice: z.string().nullable(),
});
export const ZRoomSetStatusManyOutput = ZRoomsStatusResult;
export const ZRoomSetLockOutput = z.object({
  id: z.number(),
  name: z.string(),
  lockId: z.string().nullable(),
  bluetoothName: z.string().nullable(),
  macId: z.string().nullable(),
  lockPower: z.number().nullable(),
});
export const ZRoomUnlockRecordsOutput = ZUnlockRecordPage;
export const ZRoomGroupListOutput = z.array(ZRoomGroupDto);
export const ZRoomGroupCreateOutput = ZRoomGroupDto;
export const ZRoomGroupUpdateOutput = ZRoomGroupDto;
export const ZRoomGroupDeleteOutput = ZOk;
