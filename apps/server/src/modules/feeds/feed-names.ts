import type { TAuditNames } from '@console/shared';
import type { TPrisma } from '../../db/client';

/**
 * A calendar feed as the audit log names it (issue 27 §11): its label and its room's or group's
 * name, kept in the entries about it and in those its reads write (the feed may be deleted later,
 * with its group too).
 */
export function feedNames(feed: { label: string; room?: { name: string } | null; group?: { name: string } | null }): TAuditNames {
  return { feed: feed.label, ...(feed.room ? { room: feed.room.name } : {}), ...(feed.group ? { group: feed.group.name } : {}) };
}

/** The names of feed `feedId` of hotel `hotelId` as they are now; none when it is gone. */
export async function readFeedNames(prisma: TPrisma, hotelId: number, feedId: number): Promise<TAuditNames | undefined> {
  const feed = await prisma.calendarFeed.findFirst({
    where: { id: feedId, hotelId },
    select: { label: true, room: { select: { name: true } }, group: { select: { name: true } } },
  });
  return feed ? feedNames(feed) : undefined;
}
