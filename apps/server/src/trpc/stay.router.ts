import {
  ZStayListOutput,
  ZStayGetOutput,
  ZStayCheckInOutput,
  ZStayArriveOutput,
  ZStayReserveOutput,
  ZStayArrivalsOutput,
  ZStayCancelReservationOutput,
  ZStayCheckOutOutput,
  ZStayRenewOutput,
  ZStayChangeRoomOutput,
  ZStayReschedulePreviewOutput,
  ZStayRescheduleOutput,
  ZStayAddGuestOutput,
  ZStayRemoveGuestOutput,
  ZStayGuestOutput,
  ZStayGuestsOutput,
  ZStayBreakfastOutput,
  ZStayServeBreakfastOutput,
  ZStayKeysOutput,
  ZStayFixAccessOutput,
} from '@console/shared/dto';
import {
  ZAddGuestInput,
  ZArrivalsInput,
  ZArriveInput,
  ZCancelReservationInput,
  ZReservationInput,
  ZBreakfastListInput,
  ZBreakfastServeInput,
  ZChangeRoomInput,
  ZCheckInInput,
  ZGuestIdInput,
  ZGuestListInput,
  ZRemoveGuestInput,
  ZRenewInput,
  ZRescheduleInput,
  ZStayIdInput,
  ZStayListInput,
  ZFixArrivalInput,
} from '@console/shared';
import { arriveReservation } from '../modules/stays/arrival';
import { fixArrivalAccess } from '../modules/access-rules/offline-codes';
import { listArrivals } from '../modules/stays/arrivals';
import { createReservation } from '../modules/stays/reservation';
import { listBreakfast, serveBreakfast } from '../modules/stays/breakfast';
import { checkIn } from '../modules/stays/check-in';
import { cancelReservation, checkOut } from '../modules/stays/check-out';
import { addGuest, getGuest, listGuests, removeGuest } from '../modules/stays/guests';
import { renewStay } from '../modules/stays/renewal';
import { changeRoom } from '../modules/stays/room-change';
import { previewReschedule, rescheduleStay } from '../modules/stays/reschedule';
import { getStay, listStays } from '../modules/stays/stay-list';
import { stayKeys } from '../modules/stay-keys/stay-keys';
import { authedProcedure, router } from './init';

export const stayRouter = router({
  list: authedProcedure
    .input(ZStayListInput)

    .output(ZStayListOutput)
    .query(({ ctx, input }) => listStays(ctx, input)),
  get: authedProcedure
    .input(ZStayIdInput)

    .output(ZStayGetOutput)
    .query(({ ctx, input }) => getStay(ctx, input)),
  checkIn: authedProcedure
    .input(ZCheckInInput)

    .output(ZStayCheckInOutput)
    .mutation(({ ctx, input }) => checkIn(ctx, input)),
  arrive: authedProcedure
    .input(ZArriveInput)

    .output(ZStayArriveOutput)
    .mutation(({ ctx, input }) => arriveReservation(ctx, input)),
  /** A reservation taken at the desk (a room, or any free room of a group). */
  reserve: authedProcedure
    .input(ZReservationInput)

    .output(ZStayReserveOutput)
    .mutation(({ ctx, input }) => createReservation(ctx, input)),
  /** The arrivals of a hotel day: expected, arrived, no-shows. */
  arrivals: authedProcedure
    .input(ZArrivalsInput)

    .output(ZStayArrivalsOutput)
    .query(({ ctx, input }) => listArrivals(ctx, input)),
  cancelReservation: authedProcedure
    .input(ZCancelReservationInput)

    .output(ZStayCancelReservationOutput)
    .mutation(({ ctx, input }) => cancelReservation(ctx, input)),
  checkOut: authedProcedure
    .input(ZStayIdInput)

    .output(ZStayCheckOutOutput)
    .mutation(({ ctx, input }) => checkOut(ctx, input)),
  renew: authedProcedure
    .input(ZRenewInput)

    .output(ZStayRenewOutput)
    .mutation(({ ctx, input }) => renewStay(ctx, input)),
  changeRoom: authedProcedure
    .input(ZChangeRoomInput)

    .output(ZStayChangeRoomOutput)
    .mutation(({ ctx, input }) => changeRoom(ctx, input)),
  reschedulePreview: authedProcedure
    .input(ZRescheduleInput)
    .output(ZStayReschedulePreviewOutput)
    .query(({ ctx, input }) => previewReschedule(ctx, input)),
  reschedule: authedProcedure
    .input(ZRescheduleInput)
    .output(ZStayRescheduleOutput)
    .mutation(({ ctx, input }) => rescheduleStay(ctx, input)),
  addGuest: authedProcedure
    .input(ZAddGuestInput)

    .output(ZStayAddGuestOutput)
    .mutation(({ ctx, input }) => addGuest(ctx, input)),
  removeGuest: authedProcedure
    .input(ZRemoveGuestInput)

    .output(ZStayRemoveGuestOutput)
    .mutation(({ ctx, input }) => removeGuest(ctx, input)),
  guest: authedProcedure
    .input(ZGuestIdInput)

    .output(ZStayGuestOutput)
    .query(({ ctx, input }) => getGuest(ctx, input)),
  guests: authedProcedure
    .input(ZGuestListInput)

    .output(ZStayGuestsOutput)
    .query(({ ctx, input }) => listGuests(ctx, input)),
  breakfast: authedProcedure
    .input(ZBreakfastListInput)

    .output(ZStayBreakfastOutput)
    .query(({ ctx, input }) => listBreakfast(ctx, input)),
  serveBreakfast: authedProcedure
    .input(ZBreakfastServeInput)

    .output(ZStayServeBreakfastOutput)
    .mutation(({ ctx, input }) => serveBreakfast(ctx, input)),
  /** "Fix now" of an arrival whose credentials are not on its lock (docs/access-rules.md "Arrivals not ready"). */
  fixAccess: authedProcedure
    .input(ZFixArrivalInput)
    .output(ZStayFixAccessOutput)
    .mutation(({ ctx, input }) => fixArrivalAccess(ctx, input)),
  /** What the guest holds: codes, faces and cards with their validity and delivery state (the one-time view after a change). */
  keys: authedProcedure
    .input(ZStayIdInput)

    .output(ZStayKeysOutput)
    .query(({ ctx, input }) => stayKeys(ctx, input)),
});
