import {
  ZReaderEnvironmentOutput,
  ZReaderListOutput,
  ZReaderMineOutput,
  ZReaderRegisterOutput,
  ZReaderRenameOutput,
  ZReaderBindOutput,
  ZReaderUnbindOutput,
  ZReaderDeleteOutput,
} from '@console/shared/dto';
import { deskReaderEnvironment } from '../infra/readers';
import { bindReader, deleteReader, listReaders, readerForMe, registerReader, renameReader, unbindReader } from '../modules/readers/reader.service';
import { ZBindReaderInput, ZReaderIdInput, ZRegisterReaderInput, ZRenameReaderInput } from '@console/shared';
import { authedProcedure, router } from './init';

/** Desk card readers: the registry and binding (issue 8 §3), and what the console's drivers need to know. */
export const readerRouter = router({
  /** Whether the server runs the reader simulator, and its services' URLs when not on the well-known ports. */
  environment: authedProcedure.output(ZReaderEnvironmentOutput).query(({ ctx }) => deskReaderEnvironment(ctx.deps.config)),
  list: authedProcedure.output(ZReaderListOutput).query(({ ctx }) => listReaders(ctx)),
  /** The reader bound to the signed-in account (null: none). */
  mine: authedProcedure.output(ZReaderMineOutput).query(({ ctx }) => readerForMe(ctx)),
  register: authedProcedure
    .input(ZRegisterReaderInput)

    .output(ZReaderRegisterOutput)
    .mutation(({ ctx, input }) => registerReader(ctx, input)),
  rename: authedProcedure
    .input(ZRenameReaderInput)

    .output(ZReaderRenameOutput)
    .mutation(({ ctx, input }) => renameReader(ctx, input)),
  bind: authedProcedure
    .input(ZBindReaderInput)

    .output(ZReaderBindOutput)
    .mutation(({ ctx, input }) => bindReader(ctx, input)),
  unbind: authedProcedure
    .input(ZReaderIdInput)

    .output(ZReaderUnbindOutput)
    .mutation(({ ctx, input }) => unbindReader(ctx, input)),
  delete: authedProcedure
    .input(ZReaderIdInput)

    .output(ZReaderDeleteOutput)
    .mutation(({ ctx, input }) => deleteReader(ctx, input)),
});
