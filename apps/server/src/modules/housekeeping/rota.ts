import type { ServiceContext } from '../../context';
import type { Tx } from '../../db/transaction';

const asDate = (d: string) => new Date(`${d}T00:00:00Z`);

/**
 * The rota as the keys read it (issue 28 §2 "keys that follow the rota"): which attendant has
 * which rooms on a hotel day (cleaning tasks; inspections are the supervisor's), and that
 * attendant's shift that day (null: none entered).
 */
export async function rotaOf(db: Tx | ServiceContext['deps']['prisma'], hotelId: number, day: string) {
  const tasks = await db.housekeepingTask.findMany({
    where: { hotelId, day: asDate(day), assigneeId: { not: null }, kind: { not: 'inspection' }, room: { deletedAt: null } },
    select: { roomId: true, assigneeId: true, position: true },
    orderBy: [{ assigneeId: 'asc' }, { position: 'asc' }],
  });
  const shifts = await db.attendantShift.findMany({ where: { hotelId, day: asDate(day) }, select: { membershipId: true, startsAt: true, endsAt: true } });
  const byMember = new Map<number, { membershipId: number; roomIds: number[]; shift: { startsAt: Date; endsAt: Date } | null }>();
  for (const t of tasks) {
    const entry = byMember.get(t.assigneeId!) ?? { membershipId: t.assigneeId!, roomIds: [], shift: null };
    if (!entry.roomIds.includes(t.roomId)) entry.roomIds.push(t.roomId);
    byMember.set(t.assigneeId!, entry);
  }
  for (const s of shifts) {
    const entry = byMember.get(s.membershipId) ?? { membershipId: s.membershipId, roomIds: [], shift: null };
    entry.shift = { startsAt: s.startsAt, endsAt: s.endsAt };
    byMember.set(s.membershipId, entry);
  }
  return [...byMember.values()];
}
