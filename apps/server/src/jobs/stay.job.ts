import { Worker, type ConnectionOptions } from 'bullmq';
import type { Deps } from '../context';
import type { StayJobData } from '../modules/stay/stay-schedule';
import { QUEUE_NAMES } from './queues';

export const STAY_SWEEP_EVERY_MS = 5 * 60_000;

async function audit(deps: Deps, hotelId: number, stayId: number, action: string) {
  await deps.prisma.auditLog.create({ data: { hotelId, actorType: 'job', action, entityType: 'Stay', entityId: String(stayId) } });
}

/** A reservation whose check-in time has come is in house (only the version it was scheduled for). */
export async function arriveStay(deps: Deps, job: StayJobData): Promise<boolean> {
  const stay = await deps.prisma.stay.findUnique({ where: { id: job.stayId }, select: { hotelId: true } });
  const result = await deps.prisma.stay.updateMany({
    where: { id: job.stayId, version: job.version, status: 'reserved', checkInAt: { lte: new Date() } },
    data: { status: 'in_house' },
  });
  if (result.count && stay) await audit(deps, stay.hotelId, job.stayId, 'stay.arrive');
  return result.count > 0;
}

/** A stay past its expected check-out is expired, unless it was renewed (a newer version) or ended. */
export async function expireStay(deps: Deps, job: StayJobData): Promise<boolean> {
  const stay = await deps.prisma.stay.findUnique({ where: { id: job.stayId }, select: { hotelId: true } });
  const result = await deps.prisma.stay.updateMany({
    where: { id: job.stayId, version: job.version, status: { in: ['in_house', 'reserved'] }, expectedCheckOutAt: { lte: new Date() } },
    data: { status: 'expired' },
  });
  if (result.count && stay) await audit(deps, stay.hotelId, job.stayId, 'stay.expire');
  return result.count > 0;
}

/** Catches up whatever jobs were lost (a Redis restored from an old backup): expired and arrived stays. */
export async function sweepStays(deps: Deps): Promise<{ expired: number; arrived: number }> {
  const now = new Date();
  const expired = await deps.prisma.stay.updateMany({ where: { status: { in: ['in_house', 'reserved'] }, expectedCheckOutAt: { lte: now } }, data: { status: 'expired' } });
  const arrived = await deps.prisma.stay.updateMany({ where: { status: 'reserved', checkInAt: { lte: now } }, data: { status: 'in_house' } });
  return { expired: expired.count, arrived: arrived.count };
}

export function startStayWorker(deps: Deps): Worker<StayJobData> {
  const worker = new Worker<StayJobData>(
    QUEUE_NAMES.stay,
    async (job) => {
      if (job.name === 'arrive') return arriveStay(deps, job.data);
      if (job.name === 'expire') return expireStay(deps, job.data);
      if (job.name === 'sweep') return sweepStays(deps);
      throw new Error(`unknown stay job ${job.name}`);
    },
    { connection: deps.queues.connection() as ConnectionOptions, prefix: deps.queues.prefix, concurrency: 4 },
  );
  worker.on('failed', (job, error) => deps.log.warn({ jobId: job?.id, err: error }, 'stay job failed'));
  worker.on('error', (error) => deps.log.error({ err: error }, 'stay worker error'));
  return worker;
}

/** The periodic sweep, and one right away at start (a restart after downtime catches up at once). */
export async function scheduleStaySweep(deps: Deps): Promise<void> {
  await deps.queues.stay.upsertJobScheduler('stay-sweep', { every: STAY_SWEEP_EVERY_MS }, { name: 'sweep', data: { stayId: 0, version: 0 } });
  await deps.queues.stay.add('sweep', { stayId: 0, version: 0 }, { jobId: `stay-sweep-start-${Date.now()}` });
}
