import { z } from 'zod';
import { FEED_BOOKING_STATES, FEED_SKIP_REASONS } from '../feeds';

/** A booking event of a feed (the conflicts a feed shows). */
export const ZFeedBookingDto = z.object({
  uid: z.string(),
  state: z.enum(FEED_BOOKING_STATES),
  reference: z.string(),
  guestName: z.string(),
  phone: z.string().nullable(),
  startsAt: z.date(),
  endsAt: z.date(),
  stayId: z.number().nullable(),
  conflictStayId: z.number().nullable(),
  /** A conflict with no stay to name: the range that keeps the room from being sold on its nights (docs/housekeeping.md). */
  outOfOrder: z
    .object({ roomName: z.string(), kind: z.enum(['out_of_order', 'out_of_service']), startDate: z.string(), endDate: z.string(), reason: z.string() })
    .nullable(),
});
export type TFeedBookingDto = z.infer<typeof ZFeedBookingDto>;

/** What a read that succeeded said beyond its counts: the events it skipped, the bookings it moved to another room of the group. */
export const ZFeedReadReport = z.object({
  skipped: z.array(z.object({ uid: z.string(), reason: z.enum(FEED_SKIP_REASONS) })),
  skippedCount: z.number(),
  roomChanges: z.array(z.object({ reference: z.string(), fromRoom: z.string(), toRoom: z.string() })),
});

export const ZFeedDto = z.object({
  id: z.number(),
  roomId: z.number().nullable(),
  roomName: z.string().nullable(),
  groupId: z.number().nullable(),
  groupName: z.string().nullable(),
  label: z.string(),
  url: z.string(),
  everyMinutes: z.number(),
  lastReadAt: z.date().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.date().nullable(),
  lastEventCount: z.number().nullable(),
  emptyPending: z.boolean(),
  nextReadAt: z.date(),
  lastReadReport: ZFeedReadReport.nullable(),
  booked: z.number(),
  conflicts: z.array(ZFeedBookingDto),
});
export type TFeedDto = z.infer<typeof ZFeedDto>;

/** How a read of a feed went (add, read now). */
export const ZFeedReadResult = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  events: z.number(),
  created: z.number(),
  moved: z.number(),
  roomChanged: z.number(),
  cancelled: z.number(),
  conflicts: z.number(),
  followedElsewhere: z.number(),
  skipped: z.number(),
  emptyPending: z.boolean(),
  report: ZFeedReadReport.optional(),
});
export type TFeedReadResult = z.infer<typeof ZFeedReadResult>;

/** A room's export address: `url` is null when the install has no public URL (the web prefixes its own origin to `path`). */
export const ZFeedExportLinkDto = z.object({ roomId: z.number(), path: z.string(), url: z.string().nullable() });
export type TFeedExportLinkDto = z.infer<typeof ZFeedExportLinkDto>;

export const ZFeedListOutput = z.array(ZFeedDto);
export const ZFeedAddOutput = ZFeedDto.extend({ read: ZFeedReadResult });
export const ZFeedEditOutput = ZFeedDto;
export const ZFeedDeleteOutput = z.object({ deleted: z.literal(true) });
export const ZFeedReadNowOutput = ZFeedDto.extend({ read: ZFeedReadResult });
export const ZFeedConfirmEmptyOutput = ZFeedDto.extend({ cancelled: z.number() });
export const ZFeedExportUrlOutput = ZFeedExportLinkDto;
export const ZFeedRegenerateExportOutput = ZFeedExportLinkDto;
