import type { ServiceContext } from '../../context';
import { transaction } from '../../db/transaction';
import { recordAudit } from '../audit/audit.service';
import { afterCredentialChange } from '../credentials/delivery';
import { revokeStayCredentials } from './revocation';
import type { StayJobData } from './stay-schedule';

/**
 * The transitions time makes (docs/room-status.md): a reservation whose check-in time has come is
 * in house, a stay past its expected check-out is expired. The delayed jobs of each stay version
 * call `arriveOnTime` and `expireOnTime`; the sweep catches up whatever jobs were lost. Each change
 * is audited with the job as the actor.
 */

/** A reservation whose check-in time has come is in house (only the version the job was scheduled for). */
export async function arriveOnTime(ctx: ServiceContext, job: StayJobData): Promise<boolean> {
  return transaction(ctx.deps, async (tx) => {
    const [stay] = await tx.stay.updateManyAndReturn({
      where: { id: job.stayId, version: job.version, status: 'reserved', checkInAt: { lte: new Date() } },
      data: { status: 'in_house' },
      select: { id: true, hotelId: true },
    });
    if (!stay) return false;
    await recordAudit(tx, ctx, { action: 'stay.arrive', hotelId: stay.hotelId, entityType: 'Stay', entityId: stay.id, after: { status: 'in_house', version: job.version } });
    return true;
  });
}

/** A stay past its expected check-out is expired, unless it was renewed (a newer version) or ended. */
export async function expireOnTime(ctx: ServiceContext, job: StayJobData): Promise<boolean> {
  const expired = await transaction(ctx.deps, async (tx) => {
    const [stay] = await tx.stay.updateManyAndReturn({
      where: { id: job.stayId, version: job.version, status: { in: ['in_house', 'reserved'] }, expectedCheckOutAt: { lte: new Date() } },
      data: { status: 'expired' },
      select: { id: true, hotelId: true },
    });
    if (!stay) return null;
    const revoked = await revokeStayCredentials(tx, stay.hotelId, { stayId: stay.id }, 'expired');
    await recordAudit(tx, ctx, { action: 'stay.expire', hotelId: stay.hotelId, entityType: 'Stay', entityId: stay.id, after: { status: 'expired', version: job.version, revokedCredentials: revoked } });
    return stay;
  });
  if (expired) await afterCredentialChange(ctx.deps, expired.hotelId, { stayId: expired.id });
  return expired !== null;
}

/** Catches up lost jobs (a Redis restored from an old backup, a long downtime): expired and arrived stays, each audited. */
export async function sweepStays(ctx: ServiceContext): Promise<{ expired: number; arrived: number }> {
  const result = await transaction(ctx.deps, async (tx) => {
    const now = new Date();
    const expired = await tx.stay.updateManyAndReturn({
      where: { status: { in: ['in_house', 'reserved'] }, expectedCheckOutAt: { lte: now } },
      data: { status: 'expired' },
      select: { id: true, hotelId: true },
    });
    const arrived = await tx.stay.updateManyAndReturn({ where: { status: 'reserved', checkInAt: { lte: now } }, data: { status: 'in_house' }, select: { id: true, hotelId: true } });
    for (const stay of expired) await revokeStayCredentials(tx, stay.hotelId, { stayId: stay.id }, 'expired');
    for (const [action, stays, status] of [['stay.expire', expired, 'expired'], ['stay.arrive', arrived, 'in_house']] as const) {
      for (const stay of stays) {
        await recordAudit(tx, ctx, { action, hotelId: stay.hotelId, entityType: 'Stay', entityId: stay.id, after: { status, by: 'sweep' } });
      }
    }
    return { expired, arrived: arrived.length };
  });
  for (const hotelId of new Set(result.expired.map((s) => s.hotelId))) await afterCredentialChange(ctx.deps, hotelId);
  return { expired: result.expired.length, arrived: result.arrived };
}
