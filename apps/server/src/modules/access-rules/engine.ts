import { randomInt } from 'node:crypto';
import {
  codePolicyFor,
  codeProblem,
  passwordValidity,
  phoneCode,
  phoneDigitsOf,
  randomCode as policyRandomCode,
  type CodePolicy,
  type TAccessCardOutcome,
  type TAccessOutcome,
  type TPasswordKind,
} from '@console/shared';
import type { ServiceContext } from '../../context';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import type { StayJobData } from '../../jobs/payloads';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { ruleCovers, ruleForRoom, ruleIssueAt, ruleWindow, type AccessRuleValues } from './rule-lookup';

/**
 * The access rules' engine (issue 20 §2, docs/access-rules.md): a reservation's credentials issued
 * by themselves at the rule's time, by the stay's `issue` job (issue-schedule.ts). They are rows of
 * the delivery engine like those the desk issues (state `pending` until the lock confirms them, the
 * guest told once it has, modules/messages/on-lock.ts); dates moved, cancellation, no-show and
 * check-out follow from the stay modules (moveReservationDates applies the rule's margins).
 */

/** The states in which a custom code holds its digits on a lock (the partial unique index LockPassword_live_code_key). */
const CODE_HOLDING_STATES = ['pending', 'on_lock', 'unknown'] as const;
const FACE_LIVE_STATES = ['pending', 'on_lock', 'failed', 'unknown'] as const;
const CUSTOM_CODE_LENGTH = 6;

/** A random custom code the lock's policy takes and that is not a live code of the lock. */
function randomCode(taken: Set<string>, policy: CodePolicy): string {
  return policyRandomCode(CUSTOM_CODE_LENGTH, taken, randomInt, policy);
}

/** Whether the room's lock can take a custom (online) code: a gateway is near it, or it is a WiFi lock. */
function canTakeCustom(lock: { gatewayId: string | null; isWifi: boolean } | null): boolean {
  return lock !== null && (lock.gatewayId !== null || lock.isWifi);
}

/**
 * The code a rule gives, and what it gave (stated, never silent), checked against the lock's code
 * policy before it is promised: the phone's digits must be a code the lock takes (not too simple,
 * not live on the lock already), else the rule's fallback runs; a lock that holds all the custom
 * codes it can (`live` of them) gets a generated code, which takes no place among them.
 */
export function chooseCode(
  rule: Pick<AccessRuleValues, 'codeRule' | 'phoneFallback' | 'codeType'>,
  mobile: string | null,
  lock: { gatewayId: string | null; isWifi: boolean; provider?: string | null } | null,
  taken: Set<string>,
  live = taken.size,
  phoneTail: string | null = null,
): { kind: TPasswordKind; code: string | null; outcome: TAccessOutcome } | { kind: null; code: null; outcome: TAccessOutcome } {
  const policy = codePolicyFor(lock?.provider);
  const full = live >= policy.customCapacity;
  const digits = phoneDigitsOf(rule.codeRule);
  if (digits === null) {
    const custom = rule.codeType === 'custom' || (rule.codeType === 'auto' && canTakeCustom(lock));
    if (custom && full) return { kind: 'air', code: null, outcome: 'lock_full_generated' };
    return custom ? { kind: 'custom', code: randomCode(taken, policy), outcome: 'as_rule' } : { kind: 'air', code: null, outcome: 'as_rule' };
  }
  // The guest's digits are a custom code (a generated one is the lock cloud's): online, whatever `codeType` says.
  if (full) return { kind: 'air', code: null, outcome: 'lock_full_generated' };
  // The phone's digits, else the last digits a channel gave (Airbnb's last 4) when there are enough of them.
  const fromPhone = phoneCode(mobile, digits, phoneTail);
  const problem = fromPhone === null ? null : codeProblem(fromPhone, taken, policy);
  if (fromPhone !== null && problem === null) return { kind: 'custom', code: fromPhone, outcome: 'as_rule' };
  const why = fromPhone === null ? 'phone_missing' : problem === 'code_too_simple' ? 'phone_too_simple' : 'phone_in_use';
  if (rule.phoneFallback === 'none') return { kind: null, code: null, outcome: `${why}_none` };
  return { kind: 'custom', code: randomCode(taken, policy), outcome: `${why}_random` };
}

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
      const live = await tx.lockPassword.findMany({
        where: {
          hotelId: stay.hotelId,
          roomId: stay.roomId,
          doorLockId: null,
          kind: 'custom',
          code: { not: null },
          deliveryState: { in: [...CODE_HOLDING_STATES] },
        },
        select: { code: true },
      });
      const choice = chooseCode(rule, guest?.mobile ?? null, stay.room.lock, new Set(live.map((p) => p.code!)), live.length, guest?.phoneTail ?? null);
      outcome = choice.outcome;
      audit.outcome = outcome;
      if (choice.kind !== null) {
        const validity = passwordValidity(choice.kind, window.from, window.until, stay.hotel.timeZone);
        const row = await tx.lockPassword.create({
          data: {
            hotelId: stay.hotelId,
            roomId: stay.roomId,
            stayId: stay.id,
            guestId: guest?.id ?? null,
            customerId: customer?.id ?? null,
            kind: choice.kind,
            holderName: guest?.name ?? '',
            code: choice.code,
            ...validity,
          },
          select: { id: true, kind: true, validFrom: true, validUntil: true },
        });
        audit.password = { id: row.id, kind: row.kind, validFrom: row.validFrom.toISOString(), validUntil: row.validUntil?.toISOString() ?? null };
      }
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
        await tx.cardGrant.create({
          data: {
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
          },
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
