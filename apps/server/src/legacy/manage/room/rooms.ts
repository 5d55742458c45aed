import { z } from 'zod';
import {
  LIMITS,
  ROOM_PAGE_SIZE_DEFAULT,
  ROOM_STATUS_CODES,
  ROOM_STATUS_TARGETS,
  ZId,
  ZSearch,
  zInt,
  type TRoomStatus,
  type TRoomStatusTarget,
} from '@console/shared';
import { setRoomStatus } from '../../../modules/room/room-housekeeping';
import { listRooms } from '../../../modules/room/room-list';
import { getLock, listLocks, recordLockPower, setLockData } from '../../../modules/room/room-lock-data';
import { LegacyAnswer, sessionAction } from '../action';
import { legacyRoom, zLegacyPaging } from '../convert';

const LEGACY_SORTS = { default: 'default', 'a-z': 'name_asc', 'z-a': 'name_desc', order: 'order', reverse: 'order_desc' } as const;
const STATUS_BY_CODE = Object.fromEntries(Object.entries(ROOM_STATUS_CODES).map(([k, v]) => [v, k])) as Record<number, TRoomStatus>;
/** setRoomStatus accepts a target name, or a status code: 1 vacant (clean), 4 dirty, 5 maintain. */
const TARGET_BY_CODE: Record<1 | 4 | 5, TRoomStatusTarget> = { 1: 'clean', 4: 'dirty', 5: 'out_of_order' };

function legacyLock(r: { id: number; name: string; lockId: string | null; bluetoothName: string | null; macId: string | null; lockPower: number | null }) {
  return { room_id: r.id, room_name: r.name, lock_id: r.lockId, bluetooth_name: r.bluetoothName, mac_id: r.macId, lock_power: r.lockPower };
}

/** `/manage/room/*` actions of the room board and the rooms' locks. */
export const roomBoardActions = [
  sessionAction({
    path: 'room/listNew',
    input: z.object({
      ...zLegacyPaging(ROOM_PAGE_SIZE_DEFAULT),
      status: zInt({ min: 1, max: 5 }, 'validation.stateInvalid').optional(),
      keyword: ZSearch.optional(),
      category_id: ZId.optional(),
      sort: z.enum(['default', 'a-z', 'z-a', 'order', 'reverse'], { error: 'validation.sortInvalid' }).default('default'),
    }),
    services: [listRooms],
    fields: { search: 'keyword', status: 'status' },
    async handle(ctx, input) {
      const result = await listRooms(ctx, {
        page: input.page,
        pageSize: input.limit,
        status: input.status !== undefined ? STATUS_BY_CODE[input.status] : undefined,
        search: input.keyword,
        groupId: input.category_id,
        sort: LEGACY_SORTS[input.sort],
      });
      return {
        list: result.items.map((r) => legacyRoom(r, ctx.actor)),
        total: result.total,
        page: result.page,
        limit: result.pageSize,
        counts: Object.fromEntries(Object.entries(result.counts).map(([k, v]) => [ROOM_STATUS_CODES[k as TRoomStatus], v])),
      };
    },
  }),

  sessionAction({
    path: 'room/setRoomStatus',
    input: z.object({
      room_id: ZId,
      status: z.union([z.enum(ROOM_STATUS_TARGETS), z.literal(1), z.literal(4), z.literal(5), z.literal('1'), z.literal('4'), z.literal('5')], {
        error: 'validation.stateInvalid',
      }),
    }),
    services: [setRoomStatus],
    fields: { target: 'status' },
    async handle(ctx, input) {
      const code = Number(input.status);
      const target = Number.isInteger(code) ? TARGET_BY_CODE[code as 1 | 4 | 5] : (input.status as TRoomStatusTarget);
      const room = await setRoomStatus(ctx, { roomId: input.room_id, target });
      // A room already so: still errno 0 (a legacy client sending it again keeps working), `changed: 0` and errmsg says so.
      const data = { ...legacyRoom(room, ctx.actor), changed: room.hasChanged ? 1 : 0 };
      return room.statusNotice ? new LegacyAnswer(data, room.statusNotice) : data;
    },
  }),

  sessionAction({ path: 'room/allLock', input: z.object({}), services: [listLocks], handle: async (ctx) => (await listLocks(ctx)).map(legacyLock) }),

  sessionAction({
    path: 'room/lockInfo',
    input: z.object({ room_id: ZId }),
    services: [getLock],
    handle: async (ctx, input) => legacyLock(await getLock(ctx, { roomId: input.room_id })),
  }),

  sessionAction({
    path: 'room/setLockData',
    input: z.object({
      room_id: ZId,
      // Absent: unchanged; null or blank: cleared (the service applies the room's rules).
      lock_id: z.string({ error: 'validation.textInvalid' }).max(LIMITS.roomFieldMax.lockId, { error: 'validation.textTooLong' }).nullish(),
      bluetooth_name: z.string({ error: 'validation.textInvalid' }).max(LIMITS.roomFieldMax.bluetoothName, { error: 'validation.textTooLong' }).nullish(),
      mac_id: z.string({ error: 'validation.macIdInvalid' }).max(LIMITS.roomFieldMax.macId, { error: 'validation.macIdInvalid' }).nullish(),
      /** The battery level the app read from the lock over Bluetooth (0-100): a report, not a setting. */
      lock_power: zInt({ min: 0, max: 100 }, 'validation.lockPowerInvalid').nullish(),
    }),
    services: [getLock, setLockData, recordLockPower],
    async handle(ctx, input) {
      const current = await getLock(ctx, { roomId: input.room_id });
      await setLockData(ctx, {
        roomId: input.room_id,
        lockId: input.lock_id !== undefined ? input.lock_id : current.lockId,
        bluetoothName: input.bluetooth_name !== undefined ? input.bluetooth_name : current.bluetoothName,
        macId: input.mac_id !== undefined ? input.mac_id : current.macId,
      });
      if (input.lock_power !== undefined && input.lock_power !== null) await recordLockPower(ctx, { roomId: input.room_id, lockPower: input.lock_power });
      return legacyLock(await getLock(ctx, { roomId: input.room_id }));
    },
  }),
];
