import { jobContext, type ServiceContext } from '../../context';
import { issueOnTime, type IssueResult } from './engine';
import { ruleCovers, ruleForRoom, ruleIssueAt } from '../base/rule-lookup';

/** The longest a rule issues ahead of a check-in: 30 days before, and 1440 minutes before the check-in time. */
const MAX_LEAD_MS = (30 * 24 * 60 + 1440) * 60_000;

/**
 * Catches up `issue` jobs lost with Redis, or never queued (docs/access-rules.md): reservations
 * whose room's rule says their credentials should have been issued by `now` and are not
 * (`accessIssuedAt` null) are issued now, by the same `issueOnTime` the job runs. A reservation
 * still reserved, or a channel's that began by itself meanwhile; the stay's version as it is now.
 * A job racing with the sweep issues once: `issueOnTime` takes the room's lock and reads
 * `accessIssuedAt` again inside its transaction, so the second finds it issued (`stale`).
 */
export async function sweepAccessIssues(ctx: ServiceContext, now = new Date(), scope: { hotelId?: number } = {}): Promise<number> {
  const { prisma } = ctx.deps;
  const candidates = await prisma.stay.findMany({
    where: {
      ...scope,
      accessIssuedAt: null,
      checkInAt: { lte: new Date(now.getTime() + MAX_LEAD_MS) },
      expectedCheckOutAt: { gt: now },
      OR: [{ status: 'reserved' }, { status: 'in_house', awaitsArrival: false, feedBooking: { isNot: null } }],
      hotel: { accessRules: { some: { enabled: true } } },
    },
    select: { id: true, hotelId: true, roomId: true, version: true, checkInAt: true, awaitsArrival: true, feedBooking: { select: { id: true } } },
    orderBy: { checkInAt: 'asc' },
  });
  let issued = 0;
  for (const stay of candidates) {
    const rule = await ruleForRoom(prisma, stay.hotelId, stay.roomId);
    const fromChannel = !stay.awaitsArrival && stay.feedBooking !== null;
    if (!ruleCovers(rule, { awaitsArrival: stay.awaitsArrival, fromChannel })) continue;
    if (ruleIssueAt(rule, stay.checkInAt).getTime() > now.getTime()) continue;
    let result: IssueResult;
    try {
      result = await issueOnTime(jobContext(ctx.deps, 'stay.issue', `sweep:${stay.id}`), { stayId: stay.id, version: stay.version }, now);
    } catch (error) {
      ctx.deps.log.error({ err: error, stayId: stay.id }, 'access sweep: could not issue');
      continue;
    }
    if (result === 'issued') issued += 1;
  }
  if (issued) ctx.deps.log.info({ issued }, 'access sweep: issued credentials whose job was lost');
  return issued;
}
