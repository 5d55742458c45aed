import { z } from 'zod';
import {
  LIMITS,
  ROOM_PAGE_SIZE_DEFAULT,
  ROOM_STATUS_CODES,
  ROOM_STATUS_TARGETS,
  ZId,
  ZRoomGroupInput,
  ZRoomGroupUpdateInput,
  ZSearch,
  type TRoomStatus,
  type TRoomStatusTarget,
} from '@console/shared';
import type { Actor } from '../../context';
import { AppError } from '../../errors';
import { deleteCustomer, listCustomers, type CustomerDto } from '../../modules/customer/customer.service';
import { quote, setRoomPrice, type RoomPriceDto } from '../../modules/price/price.service';
import { createRoomGroup, listRoomGroups, updateRoomGroup } from '../../modules/room/room-group.service';
import { getLock, listLocks, listRooms, setLockData, setRoomStatus } from '../../modules/room/room.service';
import { sessionAction } from './action';
import { ZFlag, ZLegacyMoney, ZLegacyTime, instantOrFail, legacyRoom, money, toMinorOrFail } from './convert';
import { legacyTime } from './format';

export function legacyCustomer(c: CustomerDto, timeZone: string) {
  return {
    id: c.id,
    nickname: c.nickname,
    mobile: c.mobile,
    email: c.email,
    avatar: c.avatar,
    create_time: legacyTime(c.registeredAt, timeZone),
    status: c.frozen ? 1 : 0,
    frozen_time: legacyTime(c.frozenAt, timeZone),
  };
}

/** `/manage/room/*` actions (customers live here in the legacy protocol). */
export const roomActions = [
  sessionAction(
    'room/clientList',
    z.object({
      page: z.coerce.number().int().min(1, { error: 'validation.pageInvalid' }).default(1),
      limit: z.coerce.number().int().min(1, { error: 'validation.pageSizeInvalid' }).max(LIMITS.pageSizeMax, { error: 'validation.pageSizeInvalid' }).default(LIMITS.pageSizeDefault),
      keyword: ZSearch.optional(),
      /** 0: active, 1: frozen; absent: all. */
      status: z.coerce.number().int().min(0).max(1).optional(),
    }),
    async (ctx, input) => {
      const result = await listCustomers(ctx, {
        page: input.page,
        pageSize: input.limit,
        search: input.keyword,
        state: input.status === undefined ? 'all' : input.status === 1 ? 'frozen' : 'active',
      });
      return { list: result.items.map((c) => legacyCustomer(c, ctx.actor.timeZone)), total: result.total, page: result.page, limit: result.pageSize };
    },
  ),

  sessionAction('room/clientDelete', z.object({ id: ZId }), async (ctx, input) => {
    await deleteCustomer(ctx, input.id);
    return null;
  }),
];

// ---------------------------------------------------------------------------------------------
// Rooms, categories, locks and prices (issue 3)

const LEGACY_SORTS = { default: 'default', 'a-z': 'name_asc', 'z-a': 'name_desc', order: 'order', reverse: 'order_desc' } as const;
const STATUS_BY_CODE = Object.fromEntries(Object.entries(ROOM_STATUS_CODES).map(([k, v]) => [v, k])) as Record<number, TRoomStatus>;
/** setRoomStatus accepts a target name, or a status code: 1 vacant (clean), 4 dirty, 5 maintain. */
const TARGET_BY_CODE: Record<number, TRoomStatusTarget> = { 1: 'clean', 4: 'dirty', 5: 'out_of_order' };

function legacyLock(r: { id: number; name: string; lockId: string | null; bluetoothName: string | null; macId: string | null; lockPower: number | null }) {
  return { room_id: r.id, room_name: r.name, lock_id: r.lockId, bluetooth_name: r.bluetoothName, mac_id: r.macId, lock_power: r.lockPower };
}

function legacyPrice(p: RoomPriceDto, actor: Actor) {
  return {
    room_id: p.roomId,
    deposit: money(p.depositAmount, actor),
    price: money(p.usualPrice, actor),
    weekend_price: money(p.weekendPrice, actor),
    renewal_price: money(p.renewalPrice, actor),
    template_id: p.priceTemplateId,
    date_prices: p.datePrices.map((d) => ({ date: d.date, price: money(d.price, actor) })),
  };
}

export const ZLegacyRates = z.object({
  deposit: ZLegacyMoney.optional(),
  price: ZLegacyMoney,
  weekend_price: ZLegacyMoney.nullish(),
  renewal_price: ZLegacyMoney.nullish(),
  date_prices: z.array(z.object({ date: z.string(), price: ZLegacyMoney })).optional(),
});

export function ratesFromLegacy(input: z.output<typeof ZLegacyRates>, actor: Actor) {
  return {
    depositAmount: input.deposit !== undefined ? toMinorOrFail(input.deposit, actor, 'deposit') : 0,
    usualPrice: toMinorOrFail(input.price, actor, 'price'),
    weekendPrice: input.weekend_price != null ? toMinorOrFail(input.weekend_price, actor, 'weekend_price') : null,
    renewalPrice: input.renewal_price != null ? toMinorOrFail(input.renewal_price, actor, 'renewal_price') : null,
    datePrices: (input.date_prices ?? []).map((d, i) => ({ date: d.date, price: toMinorOrFail(d.price, actor, `date_prices.${i}.price`) })),
  };
}

export const roomBoardActions = [
  sessionAction(
    'room/listNew',
    z.object({
      page: z.coerce.number().int().min(1, { error: 'validation.pageInvalid' }).default(1),
      limit: z.coerce.number().int().min(1, { error: 'validation.pageSizeInvalid' }).max(LIMITS.pageSizeMax, { error: 'validation.pageSizeInvalid' }).default(ROOM_PAGE_SIZE_DEFAULT),
      status: z.coerce.number().int().min(1).max(5, { error: 'validation.stateInvalid' }).optional(),
      keyword: ZSearch.optional(),
      category_id: ZId.optional(),
      sort: z.enum(['default', 'a-z', 'z-a', 'order', 'reverse'], { error: 'validation.sortInvalid' }).default('default'),
    }),
    async (ctx, input) => {
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
  ),
  sessionAction(
    'room/setRoomStatus',
    z.object({ room_id: ZId, status: z.union([z.enum(ROOM_STATUS_TARGETS), z.coerce.number().int()], { error: 'validation.stateInvalid' }) }),
    async (ctx, input) => {
      const target = typeof input.status === 'number' ? TARGET_BY_CODE[input.status] : input.status;
      if (!target) throw new AppError('VALIDATION', { messageKey: 'validation.stateInvalid', fields: { status: 'validation.stateInvalid' } });
      return legacyRoom(await setRoomStatus(ctx, { roomId: input.room_id, target }), ctx.actor);
    },
  ),
  sessionAction('room/allLock', z.object({}), async (ctx) => (await listLocks(ctx)).map(legacyLock)),
  sessionAction('room/lockInfo', z.object({ room_id: ZId }), async (ctx, input) => legacyLock(await getLock(ctx, input.room_id))),
  sessionAction(
    'room/setLockData',
    z.object({ room_id: ZId, lock_id: z.string().nullish(), bluetooth_name: z.string().nullish(), mac_id: z.string().nullish(), lock_power: z.coerce.number().nullish() }),
    async (ctx, input) => {
      const current = await getLock(ctx, input.room_id);
      const room = await setLockData(ctx, {
        roomId: input.room_id,
        lockId: input.lock_id !== undefined ? input.lock_id : current.lockId,
        bluetoothName: input.bluetooth_name !== undefined ? input.bluetooth_name : current.bluetoothName,
        macId: input.mac_id !== undefined ? input.mac_id : current.macId,
        lockPower: input.lock_power !== undefined ? input.lock_power : current.lockPower,
      });
      return legacyLock(room);
    },
  ),
  sessionAction('room/category/list', z.object({}), async (ctx) => (await listRoomGroups(ctx)).map((g) => ({ id: g.id, name: g.name, sort: g.sort, room_count: g.roomCount }))),
  sessionAction('room/addCategory', ZRoomGroupInput, async (ctx, input) => {
    const g = await createRoomGroup(ctx, input);
    return { id: g.id, name: g.name, sort: g.sort, room_count: g.roomCount };
  }),
  sessionAction('room/change/category', ZRoomGroupUpdateInput, async (ctx, input) => {
    const g = await updateRoomGroup(ctx, input);
    return { id: g.id, name: g.name, sort: g.sort, room_count: g.roomCount };
  }),
  sessionAction('room/setPrice', ZLegacyRates.extend({ room_id: ZId }), async (ctx, input) =>
    legacyPrice(await setRoomPrice(ctx, { roomId: input.room_id, ...ratesFromLegacy(input, ctx.actor) }), ctx.actor),
  ),
  sessionAction(
    'room/countRoomPriceNew',
    z.object({ room_id: ZId, check_in_time: ZLegacyTime, check_out_time: ZLegacyTime, renew: ZFlag.default(false) }),
    async (ctx, input) => {
      const result = await quote(ctx, {
        roomId: input.room_id,
        checkInAt: instantOrFail(input.check_in_time, ctx.actor, 'check_in_time'),
        expectedCheckOutAt: instantOrFail(input.check_out_time, ctx.actor, 'check_out_time'),
        kind: input.renew ? 'renewal' : 'stay',
      });
      return {
        total: money(result.total, ctx.actor),
        deposit: money(result.depositAmount, ctx.actor),
        currency: result.currency,
        nights: result.nights.map((n) => ({ date: n.date, price: money(n.price, ctx.actor), source: n.source })),
      };
    },
  ),
];
