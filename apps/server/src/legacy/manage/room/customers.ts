import { z } from 'zod';
import { ZId, ZSearch, zInt } from '@console/shared';
import { deleteCustomer, listCustomers, type CustomerDto } from '../../../modules/customers/customer.service';
import { sessionAction } from '../action';
import { legacyPage, zLegacyPaging } from '../convert';
import { legacyTime } from '../format';

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

/** `/manage/room/clientList`, `/manage/room/clientDelete`: customers live under `room/` in the legacy protocol. */
export const roomCustomerActions = [
  sessionAction({
    path: 'room/clientList',
    input: z.object({
      ...zLegacyPaging(),
      keyword: ZSearch.optional(),
      /** 0: active, 1: frozen; absent: all. */
      status: zInt({ min: 0, max: 1 }, 'validation.stateInvalid').optional(),
    }),
    services: [listCustomers],
    fields: { search: 'keyword', state: 'status' },
    async handle(ctx, input) {
      const result = await listCustomers(ctx, {
        page: input.page,
        pageSize: input.limit,
        search: input.keyword,
        state: input.status === undefined ? 'all' : input.status === 1 ? 'frozen' : 'active',
      });
      return legacyPage(result, (c) => legacyCustomer(c, ctx.actor.timeZone));
    },
  }),

  sessionAction({
    path: 'room/clientDelete',
    input: z.object({ id: ZId }),
    services: [deleteCustomer],
    async handle(ctx, input) {
      await deleteCustomer(ctx, { id: input.id });
      return null;
    },
  }),
];
