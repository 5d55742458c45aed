import { useUserInfo } from './user-info';

/** The hotel's time zone and currency: every time and amount of the console is in them. */
export function useHotelSettings(): { timeZone: string; currency: string } {
  const user = useUserInfo();
  return { timeZone: user?.hotel.timeZone ?? 'UTC', currency: user?.hotel.currency ?? 'CNY' };
}
