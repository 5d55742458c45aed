import { z } from 'zod';
import { LIMITS, ZId, ZSearch } from '@console/shared';
import { deleteCustomer, listCustomers, type CustomerDto } from '../../modules/customer/customer.service';
import { sessionAction } from './action';
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
