import { ZCustomerListOutput, ZCustomerGetOutput, ZCustomerSetFrozenOutput, ZCustomerDeleteOutput } from '@console/shared/dto';
import { ZCustomerIdInput, ZCustomerListInput, ZFreezeCustomerInput } from '@console/shared';
import { deleteCustomer, getCustomer, listCustomers, setCustomerFrozen } from '../modules/customers/customer.service';
import { authedProcedure, router } from './init';

export const customerRouter = router({
  list: authedProcedure
    .input(ZCustomerListInput)

    .output(ZCustomerListOutput)
    .query(({ ctx, input }) => listCustomers(ctx, input)),
  get: authedProcedure
    .input(ZCustomerIdInput)

    .output(ZCustomerGetOutput)
    .query(({ ctx, input }) => getCustomer(ctx, input)),
  setFrozen: authedProcedure
    .input(ZFreezeCustomerInput)

    .output(ZCustomerSetFrozenOutput)
    .mutation(({ ctx, input }) => setCustomerFrozen(ctx, input)),
  delete: authedProcedure
    .input(ZCustomerIdInput)

    .output(ZCustomerDeleteOutput)
    .mutation(async ({ ctx, input }) => {
      await deleteCustomer(ctx, input);
      return { ok: true };
    }),
});
