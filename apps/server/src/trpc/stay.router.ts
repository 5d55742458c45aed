import { ZAddGuestInput, ZArriveInput, ZBreakfastListInput, ZBreakfastServeInput, ZChangeRoomInput, ZCheckInInput, ZGuestIdInput, ZGuestListInput, ZRemoveGuestInput, ZRenewInput, ZStayIdInput, ZStayListInput } from '@console/shared';
import { arriveReservation } from '../modules/stay/arrival';
import { listBreakfast, serveBreakfast } from '../modules/stay/breakfast';
import { checkIn } from '../modules/stay/check-in';
import { cancelReservation, checkOut } from '../modules/stay/check-out';
import { addGuest, getGuest, listGuests, removeGuest } from '../modules/stay/guests';
import { renewStay } from '../modules/stay/renewal';
import { changeRoom } from '../modules/stay/room-change';
import { getStay, listStays } from '../modules/stay/stay-list';
import { authedProcedure, router } from './init';

export const stayRouter = router({
  list: authedProcedure.input(ZStayListInput).query(({ ctx, input }) => listStays(ctx, input)),
  get: authedProcedure.input(ZStayIdInput).query(({ ctx, input }) => getStay(ctx, input)),
  checkIn: authedProcedure.input(ZCheckInInput).mutation(({ ctx, input }) => checkIn(ctx, input)),
  arrive: authedProcedure.input(ZArriveInput).mutation(({ ctx, input }) => arriveReservation(ctx, input)),
  cancelReservation: authedProcedure.input(ZStayIdInput).mutation(({ ctx, input }) => cancelReservation(ctx, input)),
  checkOut: authedProcedure.input(ZStayIdInput).mutation(({ ctx, input }) => checkOut(ctx, input)),
  renew: authedProcedure.input(ZRenewInput).mutation(({ ctx, input }) => renewStay(ctx, input)),
  changeRoom: authedProcedure.input(ZChangeRoomInput).mutation(({ ctx, input }) => changeRoom(ctx, input)),
  addGuest: authedProcedure.input(ZAddGuestInput).mutation(({ ctx, input }) => addGuest(ctx, input)),
  removeGuest: authedProcedure.input(ZRemoveGuestInput).mutation(({ ctx, input }) => removeGuest(ctx, input)),
  guest: authedProcedure.input(ZGuestIdInput).query(({ ctx, input }) => getGuest(ctx, input)),
  guests: authedProcedure.input(ZGuestListInput).query(({ ctx, input }) => listGuests(ctx, input)),
  breakfast: authedProcedure.input(ZBreakfastListInput).query(({ ctx, input }) => listBreakfast(ctx, input)),
  serveBreakfast: authedProcedure.input(ZBreakfastServeInput).mutation(({ ctx, input }) => serveBreakfast(ctx, input)),
});
