import { z } from 'zod';

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
  noShowPolicy: z.enum(['release', 'charge_first_night']),
  updatedAt: z.date(),
});
export type THotelInfo = z.infer<typeof ZHotelInfo>;

export const ZHotelInfoOutput = ZHotelInfo;
export const ZHotelUpdateOutput = ZHotelInfo;
