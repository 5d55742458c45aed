import { z } from 'zod';
import { NO_SHOW_POLICIES } from '../hotel';

/** A stay named by the night audit's checks: its room and primary guest. */
const ZAuditStay = z.object({
  stayId: z.number().int(),
  roomId: z.number().int(),
  roomName: z.string(),
  guestName: z.string(),
});

/**
 * What the night audit checks before a day is closed (docs/reports.md "The day close"): shown in the
 * close's dialog, so the manager sees what the close will do and what is left for the desk.
 */
export const ZAuditChecks = z.object({
  date: z.string(),
  closed: z.boolean(),
  /** The day the books are open on now (docs/journal.md "The business date"). */
  businessDate: z.string(),
  /** Whether the day is over (a day is closed only once it is). */
  over: z.boolean(),
  noShowPolicy: z.enum(NO_SHOW_POLICIES),
  /** The day's trial balance ties: the close refuses a day whose books do not. */
  ties: z.boolean(),
  foliosOff: z.number().int(),
  /** Cashier shifts opened by the day's end and still open. */
  openShifts: z.array(z.object({ id: z.number().int(), openedAt: z.string(), openedBy: z.string(), openingFloat: z.number().int() })),
  /** Reservations due that day whose guest has not come: `due` when the close will end them as no-shows now. */
  arrivals: z.array(
    ZAuditStay.extend({
      noShowAt: z.string().nullable(),
      due: z.boolean(),
      /** The no-show fee the close will post under the hotel's policy, or 0. */
      fee: z.number().int(),
    }),
  ),
  /** Guests still in house whose departure was that day or before. */
  departures: z.array(ZAuditStay.extend({ expectedCheckOutAt: z.string() })),
  /** Bills of reservations that never began (no-shows, cancellations) still holding money or owing some. */
  bills: z.array(ZAuditStay.extend({ folioId: z.number().int(), balance: z.number().int() })),
});
export type TAuditChecks = z.infer<typeof ZAuditChecks>;
