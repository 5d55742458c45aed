import { ZSearchQueryOutput } from '@console/shared/dto';
import { ZSearchQueryInput } from '@console/shared';
import { searchEverything } from '../modules/search/search.service';
import { authedProcedure, router } from './init';

/** The search box (issue 28 §3): rooms, guests, stays and channel bookings, cards, locks and staff of the member's hotel. */
export const searchRouter = router({
  query: authedProcedure
    .input(ZSearchQueryInput)
    .output(ZSearchQueryOutput)
    .query(({ ctx, input }) => searchEverything(ctx, input)),
});
