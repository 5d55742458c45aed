import { deskReaderEnvironment } from '../infra/readers';
import { bindReader, deleteReader, listReaders, readerForMe, registerReader, renameReader, unbindReader } from '../modules/readers/reader.service';
import { ZBindReaderInput, ZReaderIdInput, ZRegisterReaderInput, ZRenameReaderInput } from '../modules/readers/schemas';
import { authedProcedure, router } from './init';

/** Desk card readers: the registry and binding (issue 8 §3), and what the console's drivers need to know. */
export const readerRouter = router({
  /** Whether the server runs the reader simulator, and its services' URLs when not on the well-known ports. */
  environment: authedProcedure.query(({ ctx }) => deskReaderEnvironment(ctx.deps.config)),
  list: authedProcedure.query(({ ctx }) => listReaders(ctx)),
  /** The reader bound to the signed-in account (null: none). */
  mine: authedProcedure.query(({ ctx }) => readerForMe(ctx)),
  register: authedProcedure.input(ZRegisterReaderInput).mutation(({ ctx, input }) => registerReader(ctx, input)),
  rename: authedProcedure.input(ZRenameReaderInput).mutation(({ ctx, input }) => renameReader(ctx, input)),
  bind: authedProcedure.input(ZBindReaderInput).mutation(({ ctx, input }) => bindReader(ctx, input)),
  unbind: authedProcedure.input(ZReaderIdInput).mutation(({ ctx, input }) => unbindReader(ctx, input)),
  delete: authedProcedure.input(ZReaderIdInput).mutation(({ ctx, input }) => deleteReader(ctx, input)),
});
