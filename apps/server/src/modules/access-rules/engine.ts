import { type TAccessCardOutcome, type TAccessOutcome } from '@console/shared';
import type { ServiceContext } from '../../context';
import { afterCommit } from '../../db/events';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { dropIssueJobs } from '../base/issue-schedule';
import type { StayJobData } from '../../jobs/payloads';
import { recordAudit } from '../audit/audit.service';
import { writeCardGrant, writeRuleCodes } from '../credentials/credential-writer';
import { followCredentials } from '../credentials/delivery';
import { hotelRules, ruleCovers, ruleIssueAt, ruleWindow, type AccessRuleValues } from '../base/rule-lookup';

/**
 * The access rules' engine (issue 20 §2, docs/access-rules.md): a reservation's credentials issued
 * by themselves at the rule's time, by the stay's `issue` job (issue-schedule.ts). They are rows of
 * the delivery engine like those the desk issues (state `pending` until the lock confirms them, the
 * guest told once it has, modules/messages/on-lock.ts); dates moved, cancellation, no-show and
 * check-out follow from the stay modules (moveReservationDates applies the rule's margins). The
 * code a rule gives is chosen under the lock's code policy by the credential writer
 * (credentials/credential-writer.ts), which writes every credential row.
 */

const FACE_LIVE_STATES = ['pending', 'on_lock', 'failed', 'unknown'] as const;
/** The states of a stay whose credentials a rule may issue: a reservation, or a channel's stay that began by itself. */
const ISSUABLE = ['reserved', 'in_house'] as const;
/** The longest a rule issues ahead of a check-in: 30 days before, and 1440 minutes before the check-in time. */
export const MAX_LEAD_MS = (30 * 24 * 60 + 1440) * 60_000;
/**
 * The most stays one issue transaction takes: a job issues its own stay and the hotel's other
 * arrivals due by then (a day's arrivals come due together), so that 300 arrivals are a dozen
 * transactions, not 300; few enough that the first codes leave for their locks while the rest are
 * issued (bench/README §17).
 */
export const ISSUE_BATCH = 25;
/** How many of the hotel's reservations are looked at for a batch (those checking in first). */
const CANDIDATES = 200;

export type IssueResult = 'issued' | 'stale' | 'not_covered' | 'early';

/**
 * Issues a reservation's credentials under its room's access rule, once (the stay records it):
 * the version the job was scheduled for, a reservation not yet ended (or one that began by itself
 * meanwhile), its rule on and covering it, its time come (`now`, tests choose it). The hotel's other
 * reservations whose time has come are issued in the same transaction (`issueDue`); their own jobs
 * then find them issued (`stale`), without a transaction.
 */
export async function issueOnTime(ctx: ServiceContext, job: StayJobData, now = new Date()): Promise<IssueResult> {
  const head = await ctx.deps.prisma.stay.findUnique({
    where: { id: job.stayId },
    select: { hotelId: true, roomId: true, version: true, status: true, accessIssuedAt: true },
  });
  if (!head || head.version !== job.version || head.accessIssuedAt !== null || !(ISSUABLE as readonly string[]).includes(head.status)) return 'stale';
  const results = await issueDue(ctx, head.hotelId, now, { stayId: job.stayId, version: job.version, roomId: head.roomId });
  return results.get(job.stayId) ?? 'stale';
}

type Db = Pick<Tx, 'stay'>;

/**
 * A hotel's reservations whose credentials are due by `now` under their room's rule and not issued
 * yet: those checking in first, at most `limit`.
 */
async function dueStays(db: Db, hotelId: number, now: Date, rules: (groupId: number | null) => AccessRuleValues, limit: number, except?: number) {
  if (limit <= 0) return [];
  const rows = await db.stay.findMany({
    where: {
      hotelId,
      ...(except !== undefined ? { id: { not: except } } : {}),
      accessIssuedAt: null,
      checkInAt: { lte: new Date(now.getTime() + MAX_LEAD_MS) },
      expectedCheckOutAt: { gt: now },
      OR: [{ status: 'reserved' }, { status: 'in_house', awaitsArrival: false, feedBooking: { isNot: null } }],
    },
    select: { id: true, roomId: true, checkInAt: true, awaitsArrival: true, feedBooking: { select: { id: true } }, room: { select: { groupId: true } } },
    orderBy: [{ checkInAt: 'asc' }, { id: 'asc' }],
    take: CANDIDATES,
  });
  return rows
    .filter((s) => {
      const rule = rules(s.room.groupId);
      return (
        ruleCovers(rule, { awaitsArrival: s.awaitsArrival, fromChannel: !s.awaitsArrival && s.feedBooking !== null }) && ruleIssueAt(rule, s.checkInAt) <= now
      );
    })
    .slice(0, limit);
}

/**
 * Issues the credentials of a hotel's reservations whose time has come (docs/access-rules.md), in
 * one transaction: `anchor` (a job's own stay, at its version, which waits for its room's lock) and
 * up to `ISSUE_BATCH` others due by `now`, whose rooms are taken only when no other transaction holds
 * them (a batch running beside it issues those). Each is read again under its room's lock, so a
 * stay is issued once whoever races for it (its job, another batch, the sweep). Results by stay id:
 * the anchor's always; the others' when issued.
 */
export async function issueDue(
  ctx: ServiceContext,
  hotelId: number,
  now: Date,
  anchor?: { stayId: number; version: number; roomId: number },
): Promise<Map<number, IssueResult>> {
  const { deps } = ctx;
  const others = await dueStays(deps.prisma, hotelId, now, await hotelRules(deps.prisma, hotelId), ISSUE_BATCH - (anchor ? 1 : 0), anchor?.stayId);
  return transaction(deps, async (tx) => {
    const results = new Map<number, IssueResult>();
    if (anchor) {
      results.set(anchor.stayId, 'stale');
      await lockRooms(tx, hotelId, [anchor.roomId]);
    }
    const otherRooms = [...new Set(others.map((s) => s.roomId))].sort((a, b) => a - b);
    const held = new Set<number>(anchor ? [anchor.roomId] : []);
    if (otherRooms.length) {
      const rows = await tx.$queryRaw<{ id: number }[]>`
        SELECT "id" FROM "Room" WHERE "hotelId" = ${hotelId} AND "id" = ANY(${otherRooms}::int[]) ORDER BY "id" FOR NO KEY UPDATE SKIP LOCKED`;
      for (const r of rows) held.add(r.id);
    }
    const ids = [...(anchor ? [anchor.stayId] : []), ...others.filter((s) => held.has(s.roomId)).map((s) => s.id)];
    const stays = await tx.stay.findMany({
      where: { id: { in: ids }, hotelId, status: { in: [...ISSUABLE] }, accessIssuedAt: null, expectedCheckOutAt: { gt: now } },
      select: {
        id: true,
        roomId: true,
        version: true,
        checkInAt: true,
        expectedCheckOutAt: true,
        awaitsArrival: true,
        feedBooking: { select: { id: true } },
        hotel: { select: { timeZone: true } },
        room: { select: { groupId: true, lock: { select: { gatewayId: true, isWifi: true, provider: true } } } },
        guests: { select: { id: true, name: true, mobile: true, phoneTail: true }, orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }], take: 1 },
      },
      orderBy: [{ checkInAt: 'asc' }, { id: 'asc' }],
    });
    const rules = await hotelRules(tx, hotelId);
    // What is issued: each stay with its rule and window, the anchor only at its version.
    const issuing: { stay: (typeof stays)[number]; rule: AccessRuleValues; issueAt: Date; window: { from: Date; until: Date } }[] = [];
    for (const stay of stays) {
      const isAnchor = stay.id === anchor?.stayId;
      if (isAnchor && stay.version !== anchor.version) continue;
      const rule = rules(stay.room.groupId);
      if (!ruleCovers(rule, { awaitsArrival: stay.awaitsArrival, fromChannel: !stay.awaitsArrival && stay.feedBooking !== null })) {
        if (isAnchor) results.set(stay.id, 'not_covered');
        continue;
      }
      // A job run early (its rule moved later since): the job scheduled for the new moment issues.
      const issueAt = ruleIssueAt(rule, stay.checkInAt).getTime();
      if (issueAt > now.getTime() + (isAnchor ? 60_000 : 0)) {
        if (isAnchor) results.set(stay.id, 'early');
        continue;
      }
      issuing.push({ stay, rule, issueAt: new Date(issueAt), window: ruleWindow(rule, stay.checkInAt, stay.expectedCheckOutAt) });
    }
    if (issuing.length === 0) return results;

    const mobiles = [...new Set(issuing.flatMap(({ stay }) => (stay.guests[0]?.mobile ? [stay.guests[0].mobile] : [])))];
    const customers = new Map(
      mobiles.length
        ? (await tx.customer.findMany({ where: { hotelId, mobile: { in: mobiles } }, select: { id: true, mobile: true }, orderBy: { id: 'asc' } }))
            .reverse()
            .map((c) => [c.mobile, c.id] as const)
        : [],
    );
    const customerOf = (stay: (typeof stays)[number]) => {
      const mobile = stay.guests[0]?.mobile;
      return mobile ? (customers.get(mobile) ?? null) : null;
    };
    const codes = issuing.filter((i) => i.rule.password);
    const written = await writeRuleCodes(
      tx,
      codes.map(({ stay, rule, window }) => {
        const guest = stay.guests[0] ?? null;
        return {
          rule,
          lock: stay.room.lock,
          mobile: guest?.mobile ?? null,
          phoneTail: guest?.phoneTail ?? null,
          window,
          timeZone: stay.hotel.timeZone,
          data: {
            hotelId,
            roomId: stay.roomId,
            stayId: stay.id,
            guestId: guest?.id ?? null,
            customerId: customerOf(stay),
            holderName: guest?.name ?? '',
          },
        };
      }),
    );
    const codeOf = new Map(codes.map((c, i) => [c.stay.id, written[i]!]));

    const outcomes = new Map<string, number[]>();
    for (const { stay, rule, window } of issuing) {
      const guest = stay.guests[0] ?? null;
      const customerId = customerOf(stay);
      const audit: Record<string, string | Record<string, string | number | null>> = { by: 'access_rule' };
      const code = codeOf.get(stay.id);
      const outcome: TAccessOutcome | null = code?.outcome ?? null;
      if (code) {
        audit.outcome = code.outcome;
        const row = code.row;
        if (row) audit.password = { id: row.id, kind: row.kind, validFrom: row.validFrom.toISOString(), validUntil: row.validUntil?.toISOString() ?? null };
      }
      if (rule.face && guest) {
        const face = await faceOfGuest(tx, hotelId, guest.id, customerId);
        if (face) {
          const busy = await tx.faceAuthorization.count({ where: { faceId: face.id, roomId: stay.roomId, deliveryState: { in: [...FACE_LIVE_STATES] } } });
          if (!busy) {
            const floor = (d: Date) => new Date(Math.floor(d.getTime() / 60_000) * 60_000);
            const row = await tx.faceAuthorization.create({
              data: {
                hotelId,
                faceId: face.id,
                roomId: stay.roomId,
                stayId: stay.id,
                note: '',
                validFrom: floor(window.from),
                validUntil: floor(window.until),
              },
              select: { id: true },
            });
            audit.face = { id: row.id, faceId: face.id };
          }
        }
      }
      let accessCard: TAccessCardOutcome | null = null;
      if (rule.card) {
        // The guest's own number card, pushed to the room's lock by number (as the desk's "send card"); none: the desk issues one at arrival.
        const card = guest?.mobile ? await guestNumberCard(tx, hotelId, guest.mobile) : null;
        if (card && guest) {
          const issue = await tx.cardIssue.create({
            data: {
              hotelId,
              cardId: card.id,
              kind: 'room',
              medium: 'number',
              state: 'issued',
              roomId: stay.roomId,
              stayId: stay.id,
              guestId: guest.id,
              roomIds: [stay.roomId],
              uid: card.uid ?? BigInt(card.cardNumber).toString(16).toUpperCase().padStart(8, '0').slice(-8),
              validFrom: window.from,
              validUntil: window.until,
              holderName: guest.name,
              issuedAt: now,
            },
            select: { id: true },
          });
          await writeCardGrant(tx, {
            hotelId,
            cardId: card.id,
            issueId: issue.id,
            medium: 'number',
            roomId: stay.roomId,
            stayId: stay.id,
            guestId: guest.id,
            customerId,
            validFrom: window.from,
            validUntil: window.until,
          });
          accessCard = 'card_sent';
          audit.card = { outcome: accessCard, issueId: issue.id, cardNumber: card.cardNumber };
        } else {
          accessCard = 'card_at_arrival';
          audit.card = { outcome: accessCard };
        }
      }
      const key = JSON.stringify([outcome, accessCard]);
      outcomes.set(key, [...(outcomes.get(key) ?? []), stay.id]);
      await recordAudit(tx, ctx, { action: 'stay.accessIssue', hotelId, entityType: 'Stay', entityId: stay.id, after: audit });
      results.set(stay.id, 'issued');
    }
    // The stays' outcomes, one statement per kind of outcome (mostly one).
    for (const [key, stayIds] of outcomes) {
      const [accessOutcome, accessCard] = JSON.parse(key) as [TAccessOutcome | null, TAccessCardOutcome | null];
      await tx.stay.updateMany({ where: { id: { in: stayIds }, hotelId }, data: { accessIssuedAt: now, accessOutcome, accessCard } });
    }
    followCredentials(tx, deps, hotelId, { roomId: { in: [...new Set(issuing.map((i) => i.stay.roomId))] } });
    // The others' own jobs have nothing left to do.
    const batched = issuing.filter((i) => i.stay.id !== anchor?.stayId).map((i) => ({ id: i.stay.id, version: i.stay.version, issueAt: i.issueAt }));
    if (batched.length) afterCommit(tx, `issue-jobs:${batched[0]!.id}`, () => dropIssueJobs(deps, batched));
    return results;
  });
}

/**
 * The guest's own number card: the newest number card the hotel sent for a stay of a guest with the
 * same phone, not reported lost and not issued now (a card is issued once at a time: CardIssue_issued_card_key).
 */
async function guestNumberCard(tx: Tx, hotelId: number, mobile: string) {
  const last = await tx.cardIssue.findFirst({
    where: {
      hotelId,
      medium: 'number',
      kind: 'room',
      stay: { guests: { some: { mobile } } },
      card: { lostAt: null, kind: 'room' },
    },
    orderBy: { id: 'desc' },
    select: { card: { select: { id: true, cardNumber: true, uid: true } } },
  });
  if (!last) return null;
  const live = await tx.cardIssue.count({ where: { hotelId, cardId: last.card.id, state: { in: ['reserved', 'issued'] } } });
  return live ? null : last.card;
}

/** The guest's newest face of the hotel: enrolled for this guest, or for the customer of the guest's phone. */
async function faceOfGuest(tx: Tx, hotelId: number, guestId: number, customerId: number | null) {
  return tx.face.findFirst({
    where: { hotelId, OR: [{ guestId }, ...(customerId !== null ? [{ customerId }] : [])] },
    orderBy: { id: 'desc' },
    select: { id: true },
  });
}
