import { useQuery } from '@tanstack/react-query';
import { HOTEL_DEFAULT_TIMES } from '@console/shared';
import { useHotelSettings } from '@/lib/hotel-settings';
import { stayQueries } from '../api';
import type { HotelClock } from './stay-times';

/**
 * The hotel's clock for the times a stay form proposes: its zone (the console's, from the session)
 * and its default check-in and check-out times (hotel information, which every member may read).
 * Undefined while they load; if they cannot be read, the database's defaults (14:00, 12:00), so
 * that a check-in is never blocked by them: the clerk sees and can change every proposed time.
 */
export function useHotelClock(): HotelClock | undefined {
  const { timeZone } = useHotelSettings();
  const info = useQuery(stayQueries.hotelClock());
  if (info.data) return { timeZone, checkInTime: info.data.checkInTime, checkOutTime: info.data.checkOutTime };
  if (info.isError) return { timeZone, ...HOTEL_DEFAULT_TIMES };
  return undefined;
}
