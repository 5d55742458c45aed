import type { Prisma } from '../../generated/prisma/client';

/**
 * Whether a stay begins its guest's visit (an arrival): it continues no other stay, or the stay it
 * continues never had its guest (a reservation moved to another room before the guest came, whose
 * `checkedOutAt` stays empty). A room change of a guest in house is no arrival. One notion for Today's
 * "arrived" figure and list, the timeline's header and the reports (issue 36 §8).
 */
export function beginsVisitSql(alias: string): string {
  return `(${alias}."movedFromStayId" IS NULL OR EXISTS (SELECT 1 FROM "Stay" mv WHERE mv."id" = ${alias}."movedFromStayId" AND mv."checkedOutAt" IS NULL))`;
}

/** The same, as a condition of a Prisma query of stays. */
export const beginsVisit: Prisma.StayWhereInput = { OR: [{ movedFromStayId: null }, { movedFrom: { checkedOutAt: null } }] };
