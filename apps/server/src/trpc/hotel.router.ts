import { ZHotelInfoOutput, ZHotelUpdateOutput } from '@console/shared/dto';
import { z } from 'zod';
import { ZId, ZUpdateHotelInput } from '@console/shared';
import { getHotelInfo, updateHotelInfo } from '../modules/hotel/hotel.service';
import { authedProcedure, router } from './init';

/** The hotel's information and settings (issue 9 §4): every member reads them, owners and administrators change them. */
export const hotelRouter = router({
  info: authedProcedure
    .input(z.object({ hotelId: ZId.optional() }).optional())

    .output(ZHotelInfoOutput)
    .query(({ ctx, input }) => getHotelInfo(ctx, input ?? {})),
  update: authedProcedure
    .input(ZUpdateHotelInput)

    .output(ZHotelUpdateOutput)
    .mutation(({ ctx, input }) => updateHotelInfo(ctx, input)),
});
