import { z } from 'zod';
import { NO_SHOW_POLICIES } from '../hotel';

export const ZHotelInfo = z.object({
  id: z.number(),
  name: z.string(),
  address: z.string(),
  tel: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  timeZone: z.string(),
  currency: z.string(),
  checkInTime: z.string(),
  checkOutTime: z.string(),
  noShowTime: z.string(),
  dayCloseTime: z.string().nullable(),
  noShowPolicy: z.enum(NO_SHOW_POLICIES),
  updatedAt: z.date(),
});
export type THotelInfo = z.infer<typeof ZHotelInfo>;

export const ZHotelInfoOutput = ZHotelInfo;
export const ZHotelUpdateOutput = ZHotelInfo;
