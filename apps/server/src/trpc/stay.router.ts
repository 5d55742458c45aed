import { z } from 'zod';
import { LIMITS, ZAddGuestInput, ZBreakfastListInput, ZBreakfastServeInput, ZChangeRoomInput, ZCheckInInput, ZId, ZPageInput, ZRemoveGuestInput, ZRenewInput, ZSearch, ZStayIdInput, ZStayListInput } from '@console/shared';
import {
  addGuest,
  changeRoom,
  checkIn,
  checkOut,
  getGuest,
  getStay,
  listBreakfast,
  listGuests,
  listStays,
  removeGuest,
  renewStay,
  serveBreakfast,
} from '../modules/stay/stay.service';
import { authedProcedure, router } from './init';

export const stayRouter = router({
  list: authedProcedure.input(ZStayListInput).query(({ ctx, input }) => listStays(ctx, input)),
  get: authedProcedure.input(ZStayIdInput).query(({ ctx, input }) => getStay(ctx, input.stayId)),
  checkIn: authedProcedure.input(ZCheckInInput).mutation(({ ctx, input }) => checkIn(ctx, input)),
  checkOut: authedProcedure.input(ZStayIdInput).mutation(({ ctx, input }) => checkOut(ctx, input.stayId)),
  renew: authedProcedure.input(ZRenewInput).mutation(({ ctx, input }) => renewStay(ctx, input)),
  changeRoom: authedProcedure.input(ZChangeRoomInput).mutation(({ ctx, input }) => changeRoom(ctx, input)),
  addGuest: authedProcedure.input(ZAddGuestInput).mutation(({ ctx, input }) => addGuest(ctx, input)),
  removeGuest: authedProcedure.input(ZRemoveGuestInput).mutation(({ ctx, input }) => removeGuest(ctx, input)),
  guest: authedProcedure.input(z.object({ id: ZId })).query(({ ctx, input }) => getGuest(ctx, input.id)),
  guests: authedProcedure
    .input(ZPageInput.extend({ pageSize: ZPageInput.shape.pageSize.default(LIMITS.pageSizeDefault), search: ZSearch.optional(), currentOnly: z.boolean().default(false) }))
    .query(({ ctx, input }) => listGuests(ctx, input)),
  breakfast: authedProcedure.input(ZBreakfastListInput).query(({ ctx, input }) => listBreakfast(ctx, input.date)),
  serveBreakfast: authedProcedure.input(ZBreakfastServeInput).mutation(({ ctx, input }) => serveBreakfast(ctx, input)),
});
