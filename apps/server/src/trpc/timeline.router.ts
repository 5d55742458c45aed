import { ZTimelineWindowInput, ZTimelineWindowOutput } from '@console/shared';
import { timelineWindow } from '../modules/timeline/timeline.service';
import { authedProcedure, router } from './init';

/** The timeline (issue 28 §1, docs/timeline.md): one visible window of rooms and days per request. */
export const timelineRouter = router({
  window: authedProcedure
    .input(ZTimelineWindowInput)
    .output(ZTimelineWindowOutput)
    .query(({ ctx, input }) => timelineWindow(ctx, input)),
});
