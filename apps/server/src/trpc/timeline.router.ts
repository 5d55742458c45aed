import { ZTimelineBarsInput, ZTimelineBarsOutput, ZTimelineWindowInput, ZTimelineWindowOutput } from '@console/shared';
import { timelineBars, timelineWindow } from '../modules/timeline/timeline.service';
import { authedProcedure, router } from './init';

/**
 * The timeline (issue 28 §1, docs/timeline.md, decision 052): a window's rooms and each day's
 * figures, and the bars of one block of its rooms (the rows on screen) per request.
 */
export const timelineRouter = router({
  window: authedProcedure
    .input(ZTimelineWindowInput)
    .output(ZTimelineWindowOutput)
    .query(({ ctx, input }) => timelineWindow(ctx, input)),
  bars: authedProcedure
    .input(ZTimelineBarsInput)
    .output(ZTimelineBarsOutput)
    .query(({ ctx, input }) => timelineBars(ctx, input)),
});
