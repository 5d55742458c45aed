import { Worker, type JobsOptions } from 'bullmq';
import { jobContext, type Deps } from '../context';
import { readFeed } from '../modules/feeds/feed-import';
import { readFeedNames } from '../modules/feeds/feed-names';
import { QUEUE_NAMES } from './queues';
import type { FeedJobData } from './payloads';
import { workerOptions } from './worker-options';

export const FEED_SCAN_EVERY_MS = 60_000;
/** The feeds one scan queues at most (the next scan takes the rest). */
const SCAN_BATCH = 1_000;

/** A feed's read: retried with backoff when the channel fails (each failure is recorded on the feed). */
export const FEED_READ_OPTIONS: JobsOptions = { attempts: 4, backoff: { type: 'exponential', delay: 30_000 } };

/**
 * The calendar feeds (modules/feeds, docs/calendar-feeds.md): every minute a scan queues a read of
 * each feed whose time has come (job id = feed and its due time: one read per due time, however
 * many servers scan); a read that fails is retried with backoff, and the feed keeps its error.
 */
export function startFeedsWorker(deps: Deps): Worker<FeedJobData> {
  const worker = new Worker<FeedJobData>(
    QUEUE_NAMES.feeds,
    async (job) => {
      if (job.name === 'scan') return scanFeeds(deps);
      if (job.name === 'read') {
        const result = await readFeedAsJob(deps, job.data, `job:${job.id}`);
        if (!result.ok && result.error !== 'not_found') throw new Error(`calendar feed ${job.data.feedId}: ${result.error}`);
        return result;
      }
      throw new Error(`unknown feeds job ${job.name}`);
    },
    workerOptions(deps, 4),
  );
  worker.on('failed', (job, error) => deps.log.warn({ jobId: job?.id, err: error }, 'calendar feed job failed'));
  worker.on('error', (error) => deps.log.error({ err: error }, 'feeds worker error'));
  return worker;
}

/**
 * A feed's read as its job runs it: acting as the feed itself, so that the entries of the
 * reservations it makes name it in the audit log ("Calendar feed Airbnb · Room 109").
 */
export async function readFeedAsJob(deps: Deps, data: FeedJobData, requestId: string) {
  const names = await readFeedNames(deps.prisma, data.hotelId, data.feedId);
  return readFeed(jobContext(deps, 'feed.read', requestId, names), data.hotelId, data.feedId);
}

/** Queues a read of every feed due now. */
export async function scanFeeds(deps: Deps, now = new Date()): Promise<number> {
  const due = await deps.prisma.calendarFeed.findMany({
    where: { nextReadAt: { lte: now } },
    orderBy: { nextReadAt: 'asc' },
    select: { id: true, hotelId: true, nextReadAt: true },
    take: SCAN_BATCH,
  });
  for (const feed of due) {
    await deps.queues.feeds.add(
      'read',
      { hotelId: feed.hotelId, feedId: feed.id },
      { ...FEED_READ_OPTIONS, jobId: `feed-${feed.id}-${feed.nextReadAt.getTime()}` },
    );
  }
  return due.length;
}

export async function scheduleFeedScan(deps: Deps): Promise<void> {
  await deps.queues.feeds.upsertJobScheduler('feeds-scan', { every: FEED_SCAN_EVERY_MS }, { name: 'scan', data: { hotelId: 0, feedId: 0 } });
}
