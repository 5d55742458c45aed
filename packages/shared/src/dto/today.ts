import { z } from 'zod';

export const ZUnpaidDeparture = z.object({
  folioId: z.number(),
  stayId: z.number(),
  roomId: z.number(),
  roomName: z.string(),
  guestId: z.number().nullable(),
  guestName: z.string().nullable(),
  checkedOutAt: z.string().nullable(),
  owedAt: z.string(),
  owed: z.number(),
  reason: z.string(),
  note: z.string(),
});
export type TUnpaidDeparture = z.infer<typeof ZUnpaidDeparture>;

export const ZTodayGetOutput = z.object({
  date: z.string(),
  /** The day the books are open on (docs/journal.md "The business date"): the day before \`date\` in the night before the audit. */
  businessDate: z.string(),
  timeZone: z.string(),
  at: z.string(),
  rooms: z.object({ reserved: z.number(), dirty: z.number(), vacant: z.number(), checked_in: z.number(), maintain: z.number(), total: z.number() }),
  arrivals: z.object({ expected: z.number(), arrived: z.number() }),
  departures: z.object({ due: z.number(), departed: z.number() }),
  inHouse: z.number(),
  overdue: z.number(),
  breakfast: z.object({ stays: z.number(), guests: z.number(), served: z.number() }),
  locks: z.object({
    offline: z.number(),
    lowBattery: z.number(),
    lowBatteryBelow: z.number(),
    roomsTotal: z.number(),
    rooms: z.array(z.object({ id: z.number(), name: z.string(), online: z.boolean().nullable(), battery: z.number().nullable() })),
  }),
  deliveries: z.object({
    failed: z.number(),
    passwords: z.number(),
    faces: z.number(),
    cards: z.number(),
    roomsTotal: z.number(),
    rooms: z.array(z.object({ id: z.number(), name: z.string(), passwords: z.number(), faces: z.number(), cards: z.number() })),
  }),
  takings: z.object({ currency: z.string(), total: z.number(), received: z.number(), paidOut: z.number(), entries: z.number() }).nullable(),
  unpaidDepartures: z.object({ total: z.number(), owed: z.number(), items: z.array(ZUnpaidDeparture) }).nullable(),
  /** Arrivals within a day whose credentials are not on their lock, the first ones of them (docs/access-rules.md "Arrivals not ready"). */
  notReady: z.object({
    total: z.number(),
    stays: z.array(
      z.object({ stayId: z.number(), roomId: z.number(), roomName: z.string(), guestName: z.string(), checkInAt: z.string(), reason: z.string() }),
    ),
  }),
});
