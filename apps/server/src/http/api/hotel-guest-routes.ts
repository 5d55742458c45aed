import { z } from 'zod';
import { ZGuestIdInput, ZGuestListInput } from '@console/shared';
import { ZHotelInfoOutput, ZStayGuestOutput, ZStayGuestsOutput } from '@console/shared/dto';
import { getHotelInfo } from '../../modules/hotel/hotel.service';
import { getGuest, listGuests } from '../../modules/stays/guests';
import { ZCursorQuery, cursorPage, numberedPage, pageFrom } from './cursor';
import { apiRoute, fieldsOf, itemOf, type ApiRoute } from './route';

/** The key's hotel and the guests of its stays (issue 29 §1), over the services tRPC's `hotel.info`, `stay.guests` and `stay.guest` call. */
export const HOTEL_GUEST_ROUTES: ApiRoute[] = [
  apiRoute({
    method: 'GET',
    path: '/hotel',
    operationId: 'getHotel',
    tag: 'Hotel',
    summary: "The key's hotel",
    description: 'Its name, address, time zone (hotel days are days there), currency (amounts are in its minor unit) and check-in and check-out times.',
    response: ZHotelInfoOutput,
    handle: (ctx) => getHotelInfo(ctx),
  }),
  apiRoute({
    method: 'GET',
    path: '/guests',
    operationId: 'listGuests',
    tag: 'Guests',
    summary: "List or search the guests of the hotel's stays",
    description:
      'Newest check-in first, each with its stay (room, state, dates). `search`: a name, mobile or ID number contains it; `currentOnly`: only guests of stays not yet ended.',
    permission: 'room.read',
    query: fieldsOf(ZGuestListInput, 'page', 'pageSize', 'currentOnly')
      .extend({
        currentOnly: z
          .enum(['true', 'false'], { error: 'validation.flagInvalid' })
          .default('false')
          .transform((v) => v === 'true'),
      })
      .extend(ZCursorQuery.shape),
    response: cursorPage(itemOf(ZStayGuestsOutput)),
    async handle(ctx, { query }) {
      const { cursor, limit, ...filters } = query;
      const { page, pageSize } = pageFrom(cursor, limit);
      const result = await listGuests(ctx, { ...filters, page, pageSize });
      return numberedPage(result.items, page, pageSize, result.total);
    },
  }),
  apiRoute({
    method: 'GET',
    path: '/guests/{guestId}',
    operationId: 'getGuest',
    tag: 'Guests',
    summary: 'Get a guest, with their stay',
    permission: 'room.read',
    params: ZGuestIdInput,
    response: ZStayGuestOutput,
    handle: (ctx, { params }) => getGuest(ctx, params),
  }),
];
