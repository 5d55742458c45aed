import type { Deps } from '../../context';

export interface StayJobData {
  stayId: number;
  /** The stay version the job was scheduled for; a renewal bumps it, making older jobs no-ops. */
  version: number;
}

interface SchedulableStay {
  id: number;
  version: number;
  status: string;
  checkInAt: Date;
  expectedCheckOutAt: Date;
}

/**
 * Schedules the delayed jobs of a stay version: `arrive` at check-in time for a reservation and
 * `expire` at the expected check-out. Job ids name the stay and version, so scheduling twice adds
 * nothing, and BullMQ keeps delayed jobs in Redis across restarts.
 */
export async function scheduleStayJobs(deps: Pick<Deps, 'queues'>, stay: SchedulableStay): Promise<void> {
  if (!['reserved', 'in_house', 'expired'].includes(stay.status)) return;
  const now = Date.now();
  const data: StayJobData = { stayId: stay.id, version: stay.version };
  if (stay.status === 'reserved' && stay.checkInAt.getTime() > now) {
    await deps.queues.stay.add('arrive', data, { jobId: `stay-${stay.id}-v${stay.version}-arrive`, delay: stay.checkInAt.getTime() - now });
  }
  if (stay.status !== 'expired') {
    await deps.queues.stay.add('expire', data, { jobId: `stay-${stay.id}-v${stay.version}-expire`, delay: Math.max(0, stay.expectedCheckOutAt.getTime() - now) });
  }
}
