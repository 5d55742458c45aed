import { hotelDayStart } from '@console/shared';
import type { Deps } from '../../context';
import { afterCommit } from '../../db/events';
import type { Tx } from '../../db/transaction';
import type { StayJobData } from '../../jobs/payloads';
import { scheduleAccessIssue } from '../base/issue-schedule';

/** What scheduling a stay's jobs reads of it. */
export interface SchedulableStay {
  id: number;
  hotelId: number;
  roomId: number;
  accessIssuedAt: Date | null;
  version: number;
  status: string;
  checkInAt: Date;
  expectedCheckOutAt: Date;
  awaitsArrival: boolean;
  noShowAt: Date | null;
  /** Made from a channel's booking, when the caller knows (scheduleAccessIssue asks otherwise). */
  fromChannel?: boolean;
}

/**
 * Schedules the delayed jobs of a stay version (docs/room-status.md):
 * - `due` at the hotel's midnight that starts a reservation's arrival day (the room is held for it
 *   tonight from then; `timeZone` is the hotel's);
 * - `arrive` at check-in time, for a check-in dated ahead (it begins by itself);
 * - `noShow` at its no-show time, for a reservation that awaits its guest at the desk;
 * - `expire` at the expected check-out of any other active stay;
 * - `issue` when the room's access rule covers the reservation: its credentials issued by
 *   themselves at the rule's time (modules/access-rules, docs/access-rules.md).
 * Job ids name the stay and its version (or the moment), so scheduling twice adds nothing, and
 * BullMQ keeps delayed jobs in Redis across restarts. Each job checks the stay again when it runs:
 * one made stale by a later change does nothing, and the sweep catches up whatever was lost.
 */
export async function scheduleStayJobs(deps: Pick<Deps, 'queues' | 'prisma'>, stay: SchedulableStay, timeZone?: string): Promise<void> {
  if (!['reserved', 'in_house', 'expired'].includes(stay.status)) return;
  const now = Date.now();
  const data: StayJobData = { stayId: stay.id, version: stay.version };
  const reserved = stay.status === 'reserved';
  if (reserved) await scheduleAccessIssue(deps, stay, now);
  if (reserved && timeZone) {
    const dueAt = hotelDayStart(stay.checkInAt, timeZone).getTime();
    if (dueAt > now) await deps.queues.stay.add('due', data, { jobId: `stay-${stay.id}-due-${dueAt}`, delay: dueAt - now });
  }
  if (reserved && stay.awaitsArrival) {
    const at = (stay.noShowAt ?? stay.expectedCheckOutAt).getTime();
    await deps.queues.stay.add('noShow', data, { jobId: `stay-${stay.id}-noshow-${at}`, delay: Math.max(0, at - now) });
    return;
  }
  if (reserved && stay.checkInAt.getTime() > now) {
    await deps.queues.stay.add('arrive', data, { jobId: `stay-${stay.id}-v${stay.version}-arrive`, delay: stay.checkInAt.getTime() - now });
  }
  if (stay.status !== 'expired') {
    await deps.queues.stay.add('expire', data, {
      jobId: `stay-${stay.id}-v${stay.version}-expire`,
      delay: Math.max(0, stay.expectedCheckOutAt.getTime() - now),
    });
  }
}

/** The stays each open transaction asked jobs for, by id: the last row asked for is the one scheduled. */
const asked = new WeakMap<Tx, Map<number, { stay: SchedulableStay; timeZone?: string }>>();

/**
 * Asks, inside the change's transaction, that the stay's jobs be scheduled once it is committed
 * (`afterCommit`, db/events.ts), as `followCredentials` does for its credentials: never for a
 * rolled-back attempt, once per stay and transaction, for the row as the transaction last gave it.
 * A failure (Redis away) is logged and the change stays committed, answered as done: the stay
 * sweep does, once due, what a lost job would have done.
 */
export function followStayJobs(tx: Tx, deps: Pick<Deps, 'queues' | 'prisma' | 'log'>, stay: SchedulableStay, timeZone?: string): void {
  let stays = asked.get(tx);
  if (!stays) asked.set(tx, (stays = new Map()));
  stays.set(stay.id, { stay, timeZone });
  const these = stays;
  afterCommit(tx, `stay-jobs:${stay.id}`, async () => {
    const last = these.get(stay.id)!;
    try {
      await scheduleStayJobs(deps, last.stay, last.timeZone);
    } catch (error) {
      deps.log.warn({ err: error, stayId: stay.id }, "could not schedule the stay's jobs now; the stay sweep will");
    }
  });
}
