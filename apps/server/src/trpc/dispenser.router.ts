import { ZDispenserListOutput, ZDispenserAddOutput, ZDispenserRenameOutput, ZDispenserCheckStatusOutput, ZDispenserDeleteOutput } from '@console/shared/dto';
import { addDispenser, checkDispenserStatus, deleteDispenser, listDispensers, renameDispenser } from '../modules/readers/dispenser.service';
import { ZAddDispenserInput, ZDispenserIdInput, ZDispenserStatusInput, ZRenameDispenserInput } from '@console/shared';
import { authedProcedure, router } from './init';

/** Card dispensers (issue 8 §5): registered here, driven by the browser through the desk's reader service. */
export const dispenserRouter = router({
  list: authedProcedure.output(ZDispenserListOutput).query(({ ctx }) => listDispensers(ctx)),
  add: authedProcedure
    .input(ZAddDispenserInput)

    .output(ZDispenserAddOutput)
    .mutation(({ ctx, input }) => addDispenser(ctx, input)),
  rename: authedProcedure
    .input(ZRenameDispenserInput)

    .output(ZDispenserRenameOutput)
    .mutation(({ ctx, input }) => renameDispenser(ctx, input)),
  /** Records the status the browser read from the reader service (stock, capacity, online/offline/fault). */
  checkStatus: authedProcedure
    .input(ZDispenserStatusInput)

    .output(ZDispenserCheckStatusOutput)
    .mutation(({ ctx, input }) => checkDispenserStatus(ctx, input)),
  delete: authedProcedure
    .input(ZDispenserIdInput)

    .output(ZDispenserDeleteOutput)
    .mutation(({ ctx, input }) => deleteDispenser(ctx, input)),
});
