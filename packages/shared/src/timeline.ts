import { z } from 'zod';
import { ZId, ZLocalDate } from './primitives';

/**
 * The timeline (issue 28 §1, docs/timeline.md, decision 052): the hotel's rooms down, days across,
 * each stay and reservation a bar. `timeline.window` reads a window's rooms and each day's figures
 * (the whole hotel, counted in SQL); `timeline.bars` the bars of one block of those rooms (the
 * rows on screen and the next ones), so that a request's cost does not grow with the hotel.
 */

/** The widths of window the timeline shows (days). */
export const TIMELINE_SPANS = [7, 14, 30, 60] as const;
export type TTimelineSpan = (typeof TIMELINE_SPANS)[number];

export const ZTimelineWindowInput = z.object({
  /** The window's first day, in the hotel's time zone. */
  from: ZLocalDate,
  days: z
    .number({ error: 'validation.invalid' })
    .refine((v): v is TTimelineSpan => (TIMELINE_SPANS as readonly number[]).includes(v), { error: 'validation.invalid' }),
  /** Only the rooms of this room group (rooms of no group: not filterable). */
  groupId: ZId.optional(),
});
export type TTimelineWindowInput = z.input<typeof ZTimelineWindowInput>;

/** The most rooms one `timeline.bars` request reads (the web asks for blocks of TIMELINE_BLOCK). */
const TIMELINE_BLOCK_MAX = 250;
export const TIMELINE_BLOCK = 100;

export const ZTimelineBarsInput = z.object({
  from: ZLocalDate,
  days: ZTimelineWindowInput.shape.days,
  /** The block's rooms (in the grid's order); rooms of another hotel or outside the member's rooms give no bars. */
  roomIds: z.array(ZId).min(1, { error: 'validation.invalid' }).max(TIMELINE_BLOCK_MAX, { error: 'validation.invalid' }),
});
export type TTimelineBarsInput = z.input<typeof ZTimelineBarsInput>;

/** A bar's colour: a reservation, a guest in house, gone, or gone with the bill left owing. Cancelled stays are not shown. */
export const TIMELINE_BAR_STATES = ['reserved', 'in_house', 'checked_out', 'owing'] as const;
export type TTimelineBarState = (typeof TIMELINE_BAR_STATES)[number];

/** The guest's codes, cards and faces on the lock, taken together: the worst one decides. Null: none. */
export const TIMELINE_CODE_STATES = ['on_lock', 'pending', 'failed'] as const;
export type TTimelineCodeState = (typeof TIMELINE_CODE_STATES)[number];

export const ZTimelineRoom = z.object({
  id: z.number(),
  name: z.string(),
  /** none, out_of_order or out_of_service (the room's maintenance axis). */
  maintenance: z.enum(['none', 'out_of_order', 'out_of_service']),
});

export const ZTimelineGroup = z.object({
  /** Null: rooms of no group. */
  id: z.number().nullable(),
  name: z.string().nullable(),
  rooms: z.array(ZTimelineRoom),
});

export const ZTimelineBar = z.object({
  stayId: z.number(),
  roomId: z.number(),
  startAt: z.string(),
  endAt: z.string(),
  /** The first and last day of the bar in the hotel's time zone (the day of its check-in and check-out). */
  startDate: z.string(),
  endDate: z.string(),
  state: z.enum(TIMELINE_BAR_STATES),
  /** Whether the desk may still move it (a reservation, or a guest in house). */
  isActive: z.boolean(),
  guestName: z.string().nullable(),
  /** The calendar feed's label (Airbnb, Booking.com, ...) when the stay came from one; null: the desk. */
  channel: z.string().nullable(),
  codeState: z.enum(TIMELINE_CODE_STATES).nullable(),
});

export const ZTimelineDay = z.object({
  date: z.string(),
  /** Rooms with no stay over the day's night and not out of order or out of service. */
  free: z.number(),
  /** Rooms sold over the night, in percent of the rooms that can be sold (0 when none can). */
  occupancy: z.number(),
  arrivals: z.number(),
  departures: z.number(),
});

export const ZTimelineWindowOutput = z.object({
  from: z.string(),
  /** The day after the window's last. */
  to: z.string(),
  days: z.number(),
  timeZone: z.string(),
  today: z.string(),
  groups: z.array(ZTimelineGroup),
  /** Every room group of the rooms the member may see, for the filter. */
  roomGroups: z.array(z.object({ id: z.number(), name: z.string() })),
  /** The bars of the first TIMELINE_BLOCK rooms (the grid opens on them); `timeline.bars` reads the other blocks. */
  bars: z.array(ZTimelineBar),
  header: z.array(ZTimelineDay),
  /** Rooms out of order or out of service by dates (docs/housekeeping.md) overlapping the window: first and last day, both included. */
  outOfOrder: z.array(
    z.object({ roomId: z.number(), kind: z.enum(['out_of_order', 'out_of_service']), startDate: z.string(), endDate: z.string(), reason: z.string() }),
  ),
});
export type TTimelineWindow = z.infer<typeof ZTimelineWindowOutput>;

export const ZTimelineBarsOutput = z.object({
  from: z.string(),
  days: z.number(),
  /** The stays overlapping the window in the block's rooms (those the member may see). */
  bars: z.array(ZTimelineBar),
});
export type TTimelineBars = z.infer<typeof ZTimelineBarsOutput>;
export type TTimelineBar = z.infer<typeof ZTimelineBar>;
