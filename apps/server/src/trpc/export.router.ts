import { ZExportStartOutput, ZExportStatusOutput, ZExportListOutput } from '@console/shared/dto';
import { ZExportIdInput, ZExportStartInput } from '@console/shared/export';
import { exportStatus, listExports, startExport } from '../modules/export/export.service';
import { authedProcedure, router } from './init';

export const exportRouter = router({
  start: authedProcedure
    .input(ZExportStartInput)

    .output(ZExportStartOutput)
    .mutation(({ ctx, input }) => startExport(ctx, input)),
  status: authedProcedure
    .input(ZExportIdInput)

    .output(ZExportStatusOutput)
    .query(({ ctx, input }) => exportStatus(ctx, input)),
  list: authedProcedure.output(ZExportListOutput).query(({ ctx }) => listExports(ctx)),
});
