import { jobContext, type ServiceContext } from '../../context';
import { issueDue } from './engine';

/**
 * Catches up `issue` jobs lost with Redis, or never queued (docs/access-rules.md): reservations
 * whose room's rule says their credentials should have been issued by `now` and are not
 * (`accessIssuedAt` null) are issued now, by the same `issueDue` the jobs run, a batch at a time per
 * hotel. A reservation still reserved, or a channel's that began by itself meanwhile; the stay's
 * version as it is now. A job racing with the sweep issues once: `issueDue` takes the rooms' locks
 * and reads `accessIssuedAt` again inside its transaction (a room another transaction holds is left
 * to it), so the second finds the stay issued.
 */
export async function sweepAccessIssues(ctx: ServiceContext, now = new Date(), scope: { hotelId?: number } = {}): Promise<number> {
  const hotels = await ctx.deps.prisma.accessRule.findMany({
    where: { ...scope, enabled: true },
    distinct: ['hotelId'],
    select: { hotelId: true },
    orderBy: { hotelId: 'asc' },
  });
  let issued = 0;
  for (const { hotelId } of hotels) {
    for (;;) {
      let results: Map<number, string>;
      try {
        results = await issueDue(jobContext(ctx.deps, 'stay.issue', `sweep:${hotelId}`), hotelId, now);
      } catch (error) {
        ctx.deps.log.error({ err: error, hotelId }, 'access sweep: could not issue');
        break;
      }
      const count = [...results.values()].filter((r) => r === 'issued').length;
      issued += count;
      if (count === 0) break;
    }
  }
  if (issued) ctx.deps.log.info({ issued }, 'access sweep: issued credentials whose job was lost');
  return issued;
}
