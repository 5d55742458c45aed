import { ZAuditListOutput, ZAuditActorsOutput } from '@console/shared/dto';
import { ZAuditListInput } from '@console/shared';
import { listAuditActors, listAuditLog } from '../modules/audit/audit-log';
import { authedProcedure, router } from './init';

/** The audit log viewer (issue 9 §6): owners and administrators (`audit.read`). */
export const auditRouter = router({
  list: authedProcedure
    .input(ZAuditListInput)

    .output(ZAuditListOutput)
    .query(({ ctx, input }) => listAuditLog(ctx, input)),
  actors: authedProcedure.output(ZAuditActorsOutput).query(({ ctx }) => listAuditActors(ctx)),
});
