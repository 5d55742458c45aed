import { ZExportIdInput, ZExportStartInput } from '@console/shared/export';
import { exportStatus, listExports, startExport } from '../modules/export/export.service';
import { authedProcedure, router } from './init';

export const exportRouter = router({
  start: authedProcedure.input(ZExportStartInput).mutation(({ ctx, input }) => startExport(ctx, input)),
  status: authedProcedure.input(ZExportIdInput).query(({ ctx, input }) => exportStatus(ctx, input)),
  list: authedProcedure.query(({ ctx }) => listExports(ctx)),
});
