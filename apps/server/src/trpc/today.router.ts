import { ZTodayGetOutput } from '@console/shared/dto';
import { getToday } from '../modules/today/today.service';
import { authedProcedure, router } from './init';

/** The today board (issue 9 §6, the spec's "home"): the day's figures of the rooms the member may see. */
export const todayRouter = router({
  get: authedProcedure.output(ZTodayGetOutput).query(({ ctx }) => getToday(ctx)),
});
