import { z } from 'zod';
import { ZId } from '@console/shared';
import { setCustomerFrozen } from '../../modules/customer/customer.service';
import { sessionAction } from './action';
import { legacyCustomer } from './room';

/** `/manage/user/*` actions. */
export const userActions = [
  sessionAction(
    'user/freezeUser',
    z.object({ id: ZId, status: z.coerce.number({ error: 'validation.frozenInvalid' }).int().min(0, { error: 'validation.frozenInvalid' }).max(1, { error: 'validation.frozenInvalid' }) }),
    async (ctx, input) => legacyCustomer(await setCustomerFrozen(ctx, { id: input.id, frozen: input.status === 1 }), ctx.actor.timeZone),
  ),
];
