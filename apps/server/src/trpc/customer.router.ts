import { ZCustomerIdInput, ZCustomerListInput, ZFreezeCustomerInput } from '@console/shared';
import { deleteCustomer, getCustomer, listCustomers, setCustomerFrozen } from '../modules/customer/customer.service';
import { authedProcedure, router } from './init';

export const customerRouter = router({
  list: authedProcedure.input(ZCustomerListInput).query(({ ctx, input }) => listCustomers(ctx, input)),
  get: authedProcedure.input(ZCustomerIdInput).query(({ ctx, input }) => getCustomer(ctx, input)),
  setFrozen: authedProcedure.input(ZFreezeCustomerInput).mutation(({ ctx, input }) => setCustomerFrozen(ctx, input)),
  delete: authedProcedure.input(ZCustomerIdInput).mutation(async ({ ctx, input }) => {
    await deleteCustomer(ctx, input);
    return { ok: true };
  }),
});
