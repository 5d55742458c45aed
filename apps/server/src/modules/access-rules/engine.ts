import { type TAccessCardOutcome, type TAccessOutcome } from '@console/shared';
import type { ServiceContext } from '../../context';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import type { StayJobData } from '../../jobs/payloads';
import { recordAudit } from '../audit/audit.service';
import { writeCardGrant, writeRuleCode } from '../credentials/credential-writer';
import { followCredentials } from '../credentials/delivery';
import { ruleCovers, ruleForRoom, ruleIssueAt, ruleWindow } from '../base/rule-lookup';

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

export type IssueResult = 'issued' | 'stale' | 'not_covered' | 'early';

/**
 * Issues a reservation's credentials under its room's access rule, once (the stay records it):
 * the version the job was scheduled for, a reservation not yet ended (or one that began by itself
 * meanwhile), its rule on and covering it, its time come (`now`, tests choose it). The password and
 * the face (when the rule asks and the guest has one) are written `pending` with the stay's audit
 * row, then the delivery engine takes them to the lock.
 */
export async function issueOnTime(ctx: ServiceContext, job: StayJobData, now = new Date()): Promise<IssueResult> {
  const { deps } = ctx;
  const result = await transaction(deps, async (tx): Promise<{ result: IssueResult; hotelId?: number; roomId?: number }> => {
    const head = await tx.stay.findUnique({ where: { id: job.stayId }, select: { hotelId: true, roomId: true } });
    if (!head) return { result: 'stale' };
    await lockRooms(tx, head.hotelId, [head.roomId]);
    const stay = await tx.stay.findFirst({
      where: { id: job.stayId, version: job.version, status: { in: ['reserved', 'in_house'] }, accessIssuedAt: null },
      select: {
        id: true,
        hotelId: true,
        roomId: true,
        checkInAt: true,
        expectedCheckOutAt: true,
        awaitsArrival: true,
        feedBooking: { select: { id: true } },
        hotel: { select: { timeZone: true } },
        room: { select: { lock: { select: { gatewayId: true, isWifi: true, provider: true } } } },
        guests: { select: { id: true, name: true, mobile: true, phoneTail: true }, orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }], take: 1 },
      },
    });
    if (!stay || stay.expectedCheckOutAt.getTime() <= now.getTime()) return { result: 'stale' };
    const rule = await ruleForRoom(tx, stay.hotelId, stay.roomId);
    if (!ruleCovers(rule, { awaitsArrival: stay.awaitsArrival, fromChannel: !stay.awaitsArrival && stay.feedBooking !== null }))
      return { result: 'not_covered' };
    // A job run early (its rule moved later since): the job scheduled for the new moment issues.
    if (ruleIssueAt(rule, stay.checkInAt).getTime() > now.getTime() + 60_000) return { result: 'early' };
    const guest = stay.guests[0] ?? null;
    const customer = guest?.mobile ? await tx.customer.findFirst({ where: { hotelId: stay.hotelId, mobile: guest.mobile }, select: { id: true } }) : null;
    const window = ruleWindow(rule, stay.checkInAt, stay.expectedCheckOutAt);
    const audit: Record<string, string | Record<string, string | number | null>> = { by: 'access_rule' };
    let outcome: TAccessOutcome | null = null;
    if (rule.password) {
      const written = await writeRuleCode(tx, {
        rule,
        lock: stay.room.lock,
        mobile: guest?.mobile ?? null,
        phoneTail: guest?.phoneTail ?? null,
        window,
        timeZone: stay.hotel.timeZone,
        data: {
          hotelId: stay.hotelId,
          roomId: stay.roomId,
          stayId: stay.id,
          guestId: guest?.id ?? null,
          customerId: customer?.id ?? null,
          holderName: guest?.name ?? '',
        },
      });
      outcome = written.outcome;
      audit.outcome = outcome;
      const row = written.row;
      if (row) audit.password = { id: row.id, kind: row.kind, validFrom: row.validFrom.toISOString(), validUntil: row.validUntil?.toISOString() ?? null };
    }
    if (rule.face && guest) {
      const face = await faceOfGuest(tx, stay.hotelId, guest.id, customer?.id ?? null);
      if (face) {
        const busy = await tx.faceAuthorization.count({ where: { faceId: face.id, roomId: stay.roomId, deliveryState: { in: [...FACE_LIVE_STATES] } } });
        if (!busy) {
          const floor = (d: Date) => new Date(Math.floor(d.getTime() / 60_000) * 60_000);
          const row = await tx.faceAuthorization.create({
            data: {
              hotelId: stay.hotelId,
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
      const card = guest?.mobile ? await guestNumberCard(tx, stay.hotelId, guest.mobile) : null;
      if (card && guest) {
        const issue = await tx.cardIssue.create({
          data: {
            hotelId: stay.hotelId,
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
          hotelId: stay.hotelId,
          cardId: card.id,
          issueId: issue.id,
          medium: 'number',
          roomId: stay.roomId,
          stayId: stay.id,
          guestId: guest.id,
          customerId: customer?.id ?? null,
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
    await tx.stay.update({ where: { id: stay.id }, data: { accessIssuedAt: now, accessOutcome: outcome, accessCard } });
    await recordAudit(tx, ctx, { action: 'stay.accessIssue', hotelId: stay.hotelId, entityType: 'Stay', entityId: stay.id, after: audit });
    followCredentials(tx, deps, stay.hotelId, { roomId: stay.roomId });
    return { result: 'issued', hotelId: stay.hotelId, roomId: stay.roomId };
  });
  return result.result;
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
