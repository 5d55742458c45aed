import type { Deps } from '../../context';
import type { StayJobData } from '../../jobs/payloads';
import { ruleCovers, ruleForRoom, ruleIssueAt } from './rule-lookup';

interface IssuableStay {
  id: number;
  hotelId: number;
  roomId: number;
  version: number;
  status: string;
  checkInAt: Date;
  awaitsArrival: boolean;
  accessIssuedAt: Date | null;
  /** Known by a caller that made it from a channel's booking (a calendar feed): not asked again. */
  fromChannel?: boolean;
}

/**
 * Schedules the `issue` job of a reservation version when its room's access rule covers it
 * (docs/access-rules.md): at the rule's lead days before the credentials' start, at once when that
 * moment has passed. The job id names the stay, its version and the moment, so a moved reservation's
 * old job (an older version) and a rule changed since (another moment) do nothing when they run.
 */
export async function scheduleAccessIssue(deps: Pick<Deps, 'queues' | 'prisma'>, stay: IssuableStay, now = Date.now()): Promise<Date | null> {
  if (stay.status !== 'reserved' || stay.accessIssuedAt) return null;
  const rule = await ruleForRoom(deps.prisma, stay.hotelId, stay.roomId);
  const fromChannel = !stay.awaitsArrival && (stay.fromChannel ?? (await deps.prisma.calendarFeedBooking.count({ where: { stayId: stay.id } })) > 0);
  if (!ruleCovers(rule, { awaitsArrival: stay.awaitsArrival, fromChannel })) return null;
  const at = ruleIssueAt(rule, stay.checkInAt);
  const data: StayJobData = { stayId: stay.id, version: stay.version };
  await deps.queues.stay.add('issue', data, { jobId: issueJobId(stay, at), delay: Math.max(0, at.getTime() - now) });
  return at;
}

/** The id of a reservation version's `issue` job at its moment. */
export function issueJobId(stay: { id: number; version: number }, at: Date): string {
  return `stay-${stay.id}-v${stay.version}-issue-${at.getTime()}`;
}

/**
 * Takes off the queue the `issue` jobs of stays another job issued with its own (a batch of a
 * hotel's arrivals): they would find their stay issued and do nothing, each one a job to run. A job
 * already running, or gone, is left as it is; it finds its stay issued.
 */
export async function dropIssueJobs(deps: Pick<Deps, 'queues'>, stays: { id: number; version: number; issueAt: Date }[]): Promise<void> {
  await Promise.allSettled(stays.map((s) => deps.queues.stay.remove(issueJobId(s, s.issueAt))));
}
