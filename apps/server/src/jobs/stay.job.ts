import { DelayedError, Worker } from 'bullmq';
import type { TAuditJob } from '@console/shared';
import { jobContext, type Deps } from '../context';
import { pruneDomainEvents } from '../db/events';
import { sumDaysOnTime } from '../modules/reports/kept-sums';
import { closeDaysOnTime } from '../modules/reports/day-close';
import { generateDaysOnTime } from '../modules/housekeeping/task-generation';
import { ISSUE_RETRY_MS, issueOnTime } from '../modules/access-rules/engine';
import { sweepAccessIssues } from '../modules/access-rules/access-sweep';
import { renewUnusedGeneratedCodes } from '../modules/access-rules/first-use';
import { giveOfflineCodes } from '../modules/access-rules/offline-codes';
import { alertManagersOfArrivals } from '../modules/access-rules/arrival-readiness';
import { arriveOnTime, dueOnTime, expireOnTime, lapseOnTime, noShowOnTime, sweepStays } from '../modules/stays/transitions';
import { addStartJob, QUEUE_NAMES } from './queues';
import type { StayJobData, SweepScope } from './payloads';
import { workerOptions } from './worker-options';

export const STAY_SWEEP_EVERY_MS = 5 * 60_000;

/** Each stay job as the audit log names it (AUDIT_JOBS: the automation it is part of). */
const STAY_JOBS = {
  due: 'stay.due',
  arrive: 'stay.arrive',
  noShow: 'stay.noShow',
  expire: 'stay.expire',
  issue: 'stay.issue',
  lapse: 'stay.lapse',
  sweep: 'stay.sweep',
} as const satisfies Record<string, TAuditJob>;

/**
 * The stay jobs only call the stay services (modules/stays/transitions.ts, and the access rules' `issue`), as the job itself.
 * The sweep's parts act each as their own automation: the stays' times, the access rules' codes, the day's close.
 */
export function startStayWorker(deps: Deps): Worker<StayJobData> {
  const worker = new Worker<StayJobData>(
    QUEUE_NAMES.stay,
    async (job, token) => {
      if (!Object.hasOwn(STAY_JOBS, job.name)) throw new Error(`unknown stay job ${job.name}`);
      const ctx = jobContext(deps, STAY_JOBS[job.name as keyof typeof STAY_JOBS], `job:${job.id}`);
      if (job.name === 'due') return dueOnTime(ctx, job.data);
      if (job.name === 'arrive') return arriveOnTime(ctx, job.data);
      if (job.name === 'noShow') return noShowOnTime(ctx, job.data);
      if (job.name === 'expire') return expireOnTime(ctx, job.data);
      if (job.name === 'issue') {
        const result = await issueOnTime(ctx, job.data);
        if (result !== 'busy') return result;
        // Its room was held (another batch issuing it, or the desk): back in a moment, no attempt spent.
        await job.moveToDelayed(Date.now() + ISSUE_RETRY_MS, token);
        throw new DelayedError();
      }
      if (job.name === 'lapse') return lapseOnTime(ctx, job.data);
      if (job.name === 'sweep') {
        const now = new Date();
        const scope = job.data.hotelId === undefined ? {} : { hotelId: job.data.hotelId };
        const stays = await sweepStays(ctx, now, scope);
        // Access rules' `issue` jobs lost with Redis (or never queued), after the stays' own transitions.
        const issued = await sweepAccessIssues(ctx, now, scope);
        // Generated codes past TTLock's 24-hour first-use window, unused, of stays not yet arrived: replaced.
        const renewedCodes = await renewUnusedGeneratedCodes(jobContext(deps, 'stay.renewCodes', `job:${job.id}`), now, scope);
        // Custom codes not on their locks as the check-in nears: an offline (generated) code in their place.
        const offlineCodes = await giveOfflineCodes(jobContext(deps, 'stay.offlineCodes', `job:${job.id}`), now, scope);
        // Arrivals still without a key on their lock: the managers told by e-mail, once each.
        const arrivalAlerts = await alertManagersOfArrivals(ctx, now, scope);
        // The outbox's old events (docs/events.md), by the install's sweep.
        const prunedEvents = job.data.hotelId === undefined ? await pruneDomainEvents(deps, now) : 0;
        // The day before, closed at each hotel's set hour (docs/reports.md), once the no-shows due are released above.
        const closedDays = await closeDaysOnTime(jobContext(deps, 'stay.closeDays', `job:${job.id}`), now, scope);
        // Yesterday's ledger summed and kept where it was not closed, for the reports of ranges of days.
        const summedDays = await sumDaysOnTime(deps, now, scope);
        // Each hotel's housekeeping day, once its day start has come (docs/housekeeping.md): today's out-of-order ranges, today's tasks.
        const housekeepingDays = await generateDaysOnTime(jobContext(deps, 'stay.housekeeping', `job:${job.id}`), now, scope);
        return { ...stays, issued, renewedCodes, offlineCodes, arrivalAlerts, prunedEvents, closedDays, summedDays, housekeepingDays };
      }
      throw new Error(`unknown stay job ${job.name}`);
    },
    workerOptions(deps, 4),
  );
  worker.on('failed', (job, error) => deps.log.warn({ jobId: job?.id, err: error }, 'stay job failed'));
  worker.on('error', (error) => deps.log.error({ err: error }, 'stay worker error'));
  return worker;
}

/**
 * The periodic sweep, and one right away at start (a restart after downtime catches up at once).
 * The schedule exists once in Redis, whichever processes upsert it; the start's sweep runs once
 * per interval for the whole install, however many servers and workers start (decision 024).
 */
export async function scheduleStaySweep(deps: Deps, scope: SweepScope = {}): Promise<void> {
  const data = { stayId: 0, version: 0, ...scope };
  await deps.queues.stay.upsertJobScheduler('stay-sweep', { every: STAY_SWEEP_EVERY_MS }, { name: 'sweep', data });
  await addStartJob(deps.queues.stay, 'sweep', data, 'stay-sweep-start', STAY_SWEEP_EVERY_MS);
}
