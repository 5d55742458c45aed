import { ZAuditListInput } from '@console/shared';
import { listAuditActors, listAuditLog } from '../modules/audit/audit-log';
import { authedProcedure, router } from './init';

/** The audit log viewer (issue 9 §6): owners and administrators (`audit.read`). */
export const auditRouter = router({
  list: authedProcedure.input(ZAuditListInput).query(({ ctx, input }) => listAuditLog(ctx, input)),
  actors: authedProcedure.query(({ ctx }) => listAuditActors(ctx)),
});
