import { type TAccessCardOutcome, type TAccessOutcome } from '@console/shared';
import type { ServiceContext } from '../../context';
import { afterCommit } from '../../db/events';
import { transaction, type Tx } from '../../db/transaction';
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
/**
 * The most rooms one issue transaction takes: a job issues its own stay and the hotel's other
 * arrivals due by then (a day's arrivals come due together), so that 300 arrivals are three
 * transactions side by side, not 300 one after another, and their codes all go to the delivery
 * engine within a third of a second; a room's desk work waits for such a transaction at most that
 * long (bench/README §17: 25 rooms a batch measured 2.80 times the simulator's capacity, 50 2.33,
 * 100 2.20).
 */
export const ISSUE_BATCH = 100;

/**
 * `busy`: another transaction holds the stay's room (a batch issuing it, or a change at the desk):
 * the job comes back a moment later (`ISSUE_RETRY_MS`) rather than wait for it.
 */
export type IssueResult = 'issued' | 'stale' | 'not_covered' | 'early' | 'busy';

/** How soon a job whose stay's room was held comes back. */
export const ISSUE_RETRY_MS = 250;

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

/**
 * Issues the credentials of a hotel's reservations whose time has come (docs/access-rules.md), in
 * one transaction: `anchor` (a job's own stay, at its version) and the due reservations of other
 * rooms, `ISSUE_BATCH` rooms in all, each room taken only when no other transaction holds it
 * (`SKIP LOCKED`: batches running side by side take other rooms, and none waits for another). Each stay is read again under
 * its room's lock, so a stay is issued once whoever races for it (its job, another batch, the sweep).
 * Results by stay id: the anchor's always; the others' when issued.
 */
export async function issueDue(
  ctx: ServiceContext,
  hotelId: number,
  now: Date,
  anchor?: { stayId: number; version: number; roomId: number },
): Promise<Map<number, IssueResult>> {
  const { deps } = ctx;
  return transaction(deps, async (tx) => {
    const results = new Map<number, IssueResult>();
    const held = new Set<number>();
    if (anchor) {
      // The anchor's room, unless another transaction holds it: a batch that took it issues the stay,
      // a change at the desk moves it on; either way the job comes back (`busy`) rather than wait.
      const got = await tx.$queryRaw<{ id: number }[]>`
        SELECT "id" FROM "Room" WHERE "hotelId" = ${hotelId} AND "id" = ${anchor.roomId} FOR NO KEY UPDATE SKIP LOCKED`;
      if (got.length) held.add(anchor.roomId);
      results.set(anchor.stayId, got.length ? 'stale' : 'busy');
    }
    const { ruleOf, longestLeadMs } = await hotelRules(tx, hotelId);
    if (longestLeadMs !== null) {
      // Rooms with a reservation that may be due (its check-in within the longest lead of the hotel's
      // rules), those checking in first, free of any other transaction; what is due exactly is decided
      // below, by each room's rule.
      const rows = await tx.$queryRaw<{ id: number }[]>`
        SELECT r."id" FROM "Room" r
          JOIN (SELECT s."roomId", min(s."checkInAt") AS "first" FROM "Stay" s
                 WHERE s."hotelId" = ${hotelId} AND s."accessIssuedAt" IS NULL
                   AND s."checkInAt" <= ${new Date(now.getTime() + longestLeadMs)} AND s."expectedCheckOutAt" > ${now}
                   AND s."status" IN ('reserved', 'in_house')
                 GROUP BY s."roomId") due ON due."roomId" = r."id"
         WHERE r."hotelId" = ${hotelId} AND r."id" <> ${anchor?.roomId ?? 0}
         ORDER BY due."first", r."id" LIMIT ${ISSUE_BATCH - held.size}
         FOR NO KEY UPDATE OF r SKIP LOCKED`;
      for (const r of rows) held.add(r.id);
    }
    if (held.size === 0) return results;
    // The stays of the rooms held, with what issuing needs (their room's group and lock, the hotel's
    // zone, their first guest), in one statement however many.
    const anchorId = anchor && held.has(anchor.roomId) ? anchor.stayId : 0;
    const rows = await tx.$queryRaw<
      {
        id: number;
        roomId: number;
        version: number;
        checkInAt: Date;
        expectedCheckOutAt: Date;
        awaitsArrival: boolean;
        fromFeed: boolean;
        timeZone: string;
        groupId: number | null;
        lockId: number | null;
        gatewayId: string | null;
        isWifi: boolean | null;
        provider: string | null;
        onlinePasscodes: boolean | null;
        offlinePasscodes: boolean | null;
        keypadWithoutZero: boolean | null;
        guestId: number | null;
        guestName: string | null;
        mobile: string | null;
        phoneTail: string | null;
      }[]
    >`
      SELECT s."id", s."roomId", s."version", s."checkInAt", s."expectedCheckOutAt", s."awaitsArrival", (b."id" IS NOT NULL) AS "fromFeed",
             h."timeZone", r."groupId", l."id" AS "lockId", l."gatewayId", l."isWifi", l."provider", l."onlinePasscodes", l."offlinePasscodes",
             l."keypadWithoutZero", g."id" AS "guestId", g."name" AS "guestName", g."mobile", g."phoneTail"
        FROM "Stay" s
        JOIN "Hotel" h ON h."id" = s."hotelId"
        JOIN "Room" r ON r."hotelId" = s."hotelId" AND r."id" = s."roomId"
        LEFT JOIN "Lock" l ON l."hotelId" = r."hotelId" AND l."id" = r."lockId"
        LEFT JOIN "CalendarFeedBooking" b ON b."stayId" = s."id"
        LEFT JOIN LATERAL (
          SELECT g."id", g."name", g."mobile", g."phoneTail" FROM "StayGuest" g
           WHERE g."hotelId" = s."hotelId" AND g."stayId" = s."id" ORDER BY g."isPrimary" DESC, g."id" LIMIT 1) g ON true
       WHERE s."hotelId" = ${hotelId} AND s."roomId" = ANY(${[...held]}::int[])
         AND s."accessIssuedAt" IS NULL AND s."expectedCheckOutAt" > ${now}
         AND ((s."id" = ${anchorId} AND s."status" IN ('reserved', 'in_house'))
           OR s."status" = 'reserved'
           OR (s."status" = 'in_house' AND NOT s."awaitsArrival" AND b."id" IS NOT NULL))
       ORDER BY s."checkInAt", s."id"`;
    const stays = rows.map((r) => ({
      id: r.id,
      roomId: r.roomId,
      version: r.version,
      checkInAt: r.checkInAt,
      expectedCheckOutAt: r.expectedCheckOutAt,
      awaitsArrival: r.awaitsArrival,
      fromFeed: r.fromFeed,
      timeZone: r.timeZone,
      groupId: r.groupId,
      lock:
        r.lockId === null
          ? null
          : {
              gatewayId: r.gatewayId,
              isWifi: r.isWifi ?? false,
              provider: r.provider,
              onlinePasscodes: r.onlinePasscodes ?? true,
              offlinePasscodes: r.offlinePasscodes ?? true,
              keypadWithoutZero: r.keypadWithoutZero ?? false,
            },
      guest: r.guestId === null ? null : { id: r.guestId, name: r.guestName ?? '', mobile: r.mobile, phoneTail: r.phoneTail },
    }));
    // What is issued: each stay with its rule and window, the anchor only at its version.
    const issuing: { stay: (typeof stays)[number]; rule: AccessRuleValues; issueAt: Date; window: { from: Date; until: Date } }[] = [];
    for (const stay of stays) {
      const isAnchor = stay.id === anchor?.stayId;
      if (isAnchor && stay.version !== anchor.version) continue;
      const rule = ruleOf(stay.groupId);
      if (!ruleCovers(rule, { awaitsArrival: stay.awaitsArrival, fromChannel: !stay.awaitsArrival && stay.fromFeed })) {
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

    const mobiles = [...new Set(issuing.flatMap(({ stay }) => (stay.guest?.mobile ? [stay.guest.mobile] : [])))];
    const customers = new Map(
      mobiles.length
        ? (await tx.customer.findMany({ where: { hotelId, mobile: { in: mobiles } }, select: { id: true, mobile: true }, orderBy: { id: 'asc' } }))
            .reverse()
            .map((c) => [c.mobile, c.id] as const)
        : [],
    );
    const customerOf = (stay: (typeof stays)[number]) => {
      const mobile = stay.guest?.mobile;
      return mobile ? (customers.get(mobile) ?? null) : null;
    };
    const codes = issuing.filter((i) => i.rule.password);
    const written = await writeRuleCodes(
      tx,
      codes.map(({ stay, rule, window }) => {
        const guest = stay.guest;
        return {
          rule,
          lock: stay.lock,
          mobile: guest?.mobile ?? null,
          phoneTail: guest?.phoneTail ?? null,
          window,
          timeZone: stay.timeZone,
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
      const guest = stay.guest;
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
