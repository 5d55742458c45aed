import { z } from 'zod';
import { ZId, zInt } from '@console/shared';
import { setCustomerFrozen } from '../../modules/customer/customer.service';
import { sessionAction } from './action';
import { legacyCustomer } from './room/customers';

/** `/manage/user/*`. */
export const userActions = [
  sessionAction({
    path: 'user/freezeUser',
    input: z.object({ id: ZId, status: zInt({ min: 0, max: 1 }, 'validation.frozenInvalid') }),
    services: [setCustomerFrozen],
    fields: { frozen: 'status' },
    handle: async (ctx, input) => legacyCustomer(await setCustomerFrozen(ctx, { id: input.id, frozen: input.status === 1 }), ctx.actor.timeZone),
  }),
];
