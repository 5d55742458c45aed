import { randomInt } from 'node:crypto';
import {
  codePolicyFor,
  lockCodePolicy,
  codeProblem,
  passwordValidity,
  phoneCode,
  phoneDigitsOf,
  randomCode as policyRandomCode,
  type CodePolicy,
  type TAccessCodeRule,
  type TAccessCodeType,
  type TAccessOutcome,
  type TAccessPhoneFallback,
  type TPasswordKind,
} from '@console/shared';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import type { Prisma } from '../../generated/prisma/client';
import { revoke } from './delivery-states';

/**
 * The one way a credential row is written (issue 27, docs/decisions/042-one-credential-writer.md):
 * every lock password and card grant of the console (the desk, the access rules' engine, shared
 * doors' copies, room moves, renewals, revocation's replacements, the offline fallback, the desk's
 * card writing and sending) is created here, inside the caller's transaction, `pending` for the
 * delivery engine unless the caller says otherwise. The lock's code policy (packages/shared
 * code-policy.ts: length, too simple, digits live on the lock, the lock's capacity) and the
 * offline-code fallback are applied here, once. ESLint refuses `lockPassword.create` and
 * `cardGrant.create(Many)` anywhere else (eslint.config.js).
 */

/** The states in which a custom code holds its digits on a lock (the partial unique indexes LockPassword_live_code_key and _live_door_code_key). */
const CODE_HOLDING_STATES = ['pending', 'on_lock', 'unknown'] as const;
const CUSTOM_CODE_LENGTH = 6;

type PasswordData = Prisma.LockPasswordUncheckedCreateInput;
type CardGrantData = Prisma.CardGrantCreateManyInput;

/** Where a custom code lives: a room's own lock (`doorLockId` null), or a shared door's lock. */
type CodeTarget = { hotelId: number; roomId: number; doorLockId?: number | null };

function holdingWhere(target: CodeTarget) {
  return {
    hotelId: target.hotelId,
    ...(target.doorLockId != null ? { doorLockId: target.doorLockId } : { roomId: target.roomId, doorLockId: null }),
    kind: 'custom' as const,
    code: { not: null },
    deliveryState: { in: [...CODE_HOLDING_STATES] },
  };
}

/**
 * What to do with a custom code whose digits the lock holds already (the same code twice on one
 * lock cannot work): refuse the request (`throw`: the desk's form says so), write it failed with
 * `duplicate_code` as the lock would answer (`fail`: a shared door's copy, shown on the door), or
 * write nothing (`skip`: a room move says `code_taken`).
 */
type OnTaken = 'throw' | 'fail' | 'skip';

/**
 * Writes a lock password. A custom code is checked against the digits live on its lock first (see
 * OnTaken); `null` when skipped.
 */
export async function writePassword<S extends Prisma.LockPasswordSelect>(
  tx: Tx,
  data: PasswordData,
  options: { select: S; onTaken: 'skip' },
): Promise<Prisma.LockPasswordGetPayload<{ select: S }> | null>;
export async function writePassword<S extends Prisma.LockPasswordSelect>(
  tx: Tx,
  data: PasswordData,
  options: { select: S; onTaken?: 'throw' | 'fail' },
): Promise<Prisma.LockPasswordGetPayload<{ select: S }>>;
export async function writePassword(tx: Tx, data: PasswordData, options: { onTaken: 'skip' }): Promise<{ id: number } | null>;
export async function writePassword(tx: Tx, data: PasswordData, options?: { onTaken?: 'throw' | 'fail' }): Promise<{ id: number }>;
export async function writePassword(
  tx: Tx,
  data: PasswordData,
  options: { select?: Prisma.LockPasswordSelect; onTaken?: OnTaken } = {},
): Promise<object | null> {
  let row = data;
  if (data.kind === 'custom' && data.code?.includes('0') && (await keypadWithoutZero(tx, data))) {
    // A 0 that the lock's keypad has no key for (a Nuki Keypad): the code could never be typed there.
    // The desk's form is refused; a copy or a moved code is written failed, saying why, for the desk
    // to replace (never silently dropped: a move's code is the guest's).
    if ((options.onTaken ?? 'throw') === 'throw')
      throw new AppError('CONFLICT', { messageKey: 'credentials.errors.no_zero_key', fields: { code: 'credentials.errors.no_zero_key' } });
    row = { ...data, deliveryState: 'failed', lastError: 'no_zero_key' };
  } else if (data.kind === 'custom' && data.code) {
    const clash = await tx.lockPassword.findFirst({
      where: { ...holdingWhere({ hotelId: data.hotelId, roomId: data.roomId, doorLockId: data.doorLockId }), code: data.code },
      select: { id: true },
    });
    if (clash) {
      const onTaken = options.onTaken ?? 'throw';
      if (onTaken === 'skip') return null;
      if (onTaken === 'throw')
        throw new AppError('CONFLICT', { messageKey: 'credentials.errors.duplicate_code', fields: { code: 'credentials.errors.duplicate_code' } });
      row = { ...data, deliveryState: 'failed', lastError: 'duplicate_code' };
    }
  }
  return tx.lockPassword.create({ data: row, select: options.select ?? { id: true } });
}

/** Whether the lock a code is for (a shared door's, else the room's) has a keypad without a 0 key. */
async function keypadWithoutZero(tx: Tx, target: CodeTarget): Promise<boolean> {
  const where =
    target.doorLockId != null ? { id: target.doorLockId, hotelId: target.hotelId } : { hotelId: target.hotelId, rooms: { some: { id: target.roomId } } };
  return (await tx.lock.findFirst({ where: { ...where, keypadWithoutZero: true }, select: { id: true } })) !== null;
}

/** Writes a card grant (one card on one lock: a room's, or a shared door's). */
export async function writeCardGrant<S extends Prisma.CardGrantSelect>(
  tx: Tx,
  data: CardGrantData,
  select: S,
): Promise<Prisma.CardGrantGetPayload<{ select: S }>>;
export async function writeCardGrant(tx: Tx, data: CardGrantData): Promise<{ id: number }>;
export async function writeCardGrant(tx: Tx, data: CardGrantData, select: Prisma.CardGrantSelect = { id: true }): Promise<object> {
  return tx.cardGrant.create({ data, select });
}

/** Writes a card's grants at once (a writing on all its rooms and doors). */
export async function writeCardGrants(tx: Tx, data: CardGrantData[]): Promise<number> {
  if (!data.length) return 0;
  return (await tx.cardGrant.createMany({ data })).count;
}

/** What of an access rule decides the code it gives. */
export interface CodeRule {
  codeRule: TAccessCodeRule;
  phoneFallback: TAccessPhoneFallback;
  codeType: TAccessCodeType;
}

export type RuleLock = {
  gatewayId: string | null;
  isWifi: boolean;
  provider?: string | null;
  onlinePasscodes?: boolean;
  offlinePasscodes?: boolean;
  keypadWithoutZero?: boolean;
} | null;

/** A random custom code the lock's policy takes and that is not a live code of the lock. */
function randomCode(taken: Set<string>, policy: CodePolicy): string {
  return policyRandomCode(CUSTOM_CODE_LENGTH, taken, randomInt, policy);
}

/**
 * Whether the room's lock can take a custom (online) code now: it takes chosen codes, and its
 * platform reaches it (TTLock: a gateway near it, or its own WiFi; Seam: always, by its own link or bridge).
 */
function canTakeCustom(lock: RuleLock): boolean {
  if (lock === null || lock.onlinePasscodes === false) return false;
  return !codePolicyFor(lock.provider).customNeedsGateway || lock.gatewayId !== null || lock.isWifi;
}

/**
 * Whether the rule's code is a chosen one: as the rule says (`auto`: when the lock can take one now),
 * unless the lock takes only the other kind (a Seam keypad without offline codes takes chosen codes
 * only; one without online codes generated codes only): what it can take, never a code it refuses.
 */
export function customFor(rule: Pick<CodeRule, 'codeType'>, lock: RuleLock): boolean {
  const custom = rule.codeType === 'custom' || (rule.codeType === 'auto' && canTakeCustom(lock));
  if (custom && lock?.onlinePasscodes === false && lock.offlinePasscodes !== false) return false;
  if (!custom && lock?.offlinePasscodes === false && lock.onlinePasscodes !== false) return true;
  return custom;
}

/**
 * The code a rule gives, and what it gave (stated, never silent), checked against the lock's code
 * policy before it is promised: the phone's digits must be a code the lock takes (not too simple,
 * not live on the lock already), else the rule's fallback runs; a lock that holds all the custom
 * codes it can (`live` of them) gets a generated code, which takes no place among them.
 */
export function chooseCode(
  rule: CodeRule,
  mobile: string | null,
  lock: RuleLock,
  taken: Set<string>,
  live = taken.size,
  phoneTail: string | null = null,
): { kind: TPasswordKind; code: string | null; outcome: TAccessOutcome } | { kind: null; code: null; outcome: TAccessOutcome } {
  const policy = lockCodePolicy(lock);
  const full = live >= policy.customCapacity;
  const digits = phoneDigitsOf(rule.codeRule);
  if (digits === null) {
    const custom = customFor(rule, lock);
    if (custom && full) return { kind: 'air', code: null, outcome: 'lock_full_generated' };
    return custom ? { kind: 'custom', code: randomCode(taken, policy), outcome: 'as_rule' } : { kind: 'air', code: null, outcome: 'as_rule' };
  }
  // The guest's digits are a custom code (a generated one is the lock cloud's): online, whatever `codeType` says.
  if (full) return { kind: 'air', code: null, outcome: 'lock_full_generated' };
  // The phone's digits, else the last digits a channel gave (Airbnb's last 4) when there are enough of them.
  const fromPhone = phoneCode(mobile, digits, phoneTail);
  const problem = fromPhone === null ? null : codeProblem(fromPhone, taken, policy);
  if (fromPhone !== null && problem === null) return { kind: 'custom', code: fromPhone, outcome: 'as_rule' };
  const why =
    fromPhone === null ? 'phone_missing' : problem === 'code_too_simple' ? 'phone_too_simple' : problem === 'no_zero_key' ? 'phone_has_zero' : 'phone_in_use';
  if (rule.phoneFallback === 'none') return { kind: null, code: null, outcome: `${why}_none` };
  return { kind: 'custom', code: randomCode(taken, policy), outcome: `${why}_random` };
}

/** One stay's code under a rule, as `writeRuleCodes` takes it. */
export interface RuleCodeInput {
  rule: CodeRule;
  lock: RuleLock;
  mobile: string | null;
  /** The last digits a channel gave instead of a whole phone (Airbnb's "Last 4 Digits"). */
  phoneTail?: string | null;
  window: { from: Date; until: Date };
  timeZone: string;
  data: Omit<PasswordData, 'kind' | 'code' | 'validFrom' | 'validUntil'>;
}

export type RuleCodeOutcome = { outcome: TAccessOutcome; row: { id: number; kind: TPasswordKind; validFrom: Date; validUntil: Date | null } | null };

/**
 * Rules' codes for stays (the engine's batch of a hotel's due arrivals, access-rules/engine.ts): each
 * chosen under its lock's code policy against the codes live on it (chooseCode), for the rule's
 * window, written `pending`; a row is null when the rule's fallback is to give none, and the outcome
 * says what was given and why. Three statements however many stays: the live codes of every room read
 * once, each code chosen in turn (a code given to one stay is taken for the next on the same lock),
 * the rows written together. Outcomes in the order of `inputs`.
 */
export async function writeRuleCodes(tx: Tx, inputs: RuleCodeInput[]): Promise<RuleCodeOutcome[]> {
  if (inputs.length === 0) return [];
  const hotelId = inputs[0]!.data.hotelId;
  if (inputs.some((i) => i.data.hotelId !== hotelId)) throw new Error('writeRuleCodes: one hotel at a time');
  const roomIds = [...new Set(inputs.map((i) => i.data.roomId))];
  const live = await tx.lockPassword.findMany({
    where: { ...holdingWhere({ hotelId, roomId: 0 }), roomId: { in: roomIds } },
    select: { roomId: true, code: true },
  });
  const takenByRoom = new Map<number, Set<string>>(roomIds.map((id) => [id, new Set<string>()]));
  for (const p of live) takenByRoom.get(p.roomId)!.add(p.code!);
  const outcomes: RuleCodeOutcome[] = [];
  const rows: PasswordData[] = [];
  const rowOf: (number | null)[] = [];
  for (const input of inputs) {
    const taken = takenByRoom.get(input.data.roomId)!;
    const choice = chooseCode(input.rule, input.mobile, input.lock, taken, taken.size, input.phoneTail ?? null);
    outcomes.push({ outcome: choice.outcome, row: null });
    if (choice.kind === null) {
      rowOf.push(null);
      continue;
    }
    if (choice.code !== null) taken.add(choice.code);
    rowOf.push(rows.length);
    rows.push({ ...input.data, kind: choice.kind, code: choice.code, ...passwordValidity(choice.kind, input.window.from, input.window.until, input.timeZone) });
  }
  if (rows.length === 0) return outcomes;
  // PostgreSQL returns an INSERT's rows in the order of its VALUES: checked, row by row.
  const written = await tx.lockPassword.createManyAndReturn({
    data: rows,
    select: { id: true, kind: true, validFrom: true, validUntil: true, roomId: true, stayId: true },
  });
  if (written.length !== rows.length || written.some((w, i) => w.roomId !== rows[i]!.roomId || w.stayId !== (rows[i]!.stayId ?? null)))
    throw new Error('writeRuleCodes: the rows written are not those asked for, in their order');
  rowOf.forEach((at, i) => {
    if (at === null) return;
    const { id, kind, validFrom, validUntil } = written[at]!;
    outcomes[i]!.row = { id, kind, validFrom, validUntil };
  });
  return outcomes;
}

/** States of a custom code that the lock has not confirmed. */
const NOT_CONFIRMED = ['pending', 'failed', 'unknown'] as const;
/** A code still on its first try is given this long before it counts as not confirmed. */
const FIRST_TRY_MS = 5 * 60_000;

/**
 * The offline fallback's test (docs/access-rules.md "Offline codes"): a custom code of a room's
 * lock that the lock has not confirmed, tried and refused or waiting longer than a first try
 * takes (`now`). By hand ("fix now"), any code of the room's lock not confirmed.
 */
export function notConfirmedCodes(now: Date, options: { byHand?: boolean } = {}) {
  if (options.byHand) return { doorLockId: null, deliveryState: { in: [...NOT_CONFIRMED] } };
  return {
    doorLockId: null,
    kind: 'custom' as const,
    offline: false,
    deliveryState: { in: [...NOT_CONFIRMED] },
    OR: [
      { deliveryState: { in: ['failed' as const, 'unknown' as const] } },
      { attempts: { gt: 0 } },
      { lastError: { not: null } },
      { createdAt: { lt: new Date(now.getTime() - FIRST_TRY_MS) } },
    ],
  };
}

/**
 * The offline fallback: a generated code the lock knows without its gateway (TTLock computes it from
 * key data it shares with the lock) for what is left of the window of the code it stands in for,
 * and that code's like (`notConfirmed`) withdrawn in the same transaction, so that no code lands
 * beside it should the gateway answer later.
 */
export async function writeOfflineCode(
  tx: Tx,
  input: {
    stay: { id: number; hotelId: number; roomId: number };
    timeZone: string;
    now: Date;
    instead: { guestId: number | null; customerId: number | null; holderName: string; validFrom: Date; validUntil: Date | null };
    notConfirmed: object;
  },
): Promise<{ row: { id: number; validFrom: Date; validUntil: Date | null }; withdrawn: number }> {
  const { stay, instead, now } = input;
  const from = instead.validFrom.getTime() > now.getTime() ? instead.validFrom : now;
  const validity = passwordValidity('air', from, instead.validUntil, input.timeZone);
  const row = await tx.lockPassword.create({
    data: {
      hotelId: stay.hotelId,
      roomId: stay.roomId,
      stayId: stay.id,
      guestId: instead.guestId,
      customerId: instead.customerId,
      kind: 'air',
      offline: true,
      holderName: instead.holderName,
      ...validity,
    },
    select: { id: true, validFrom: true, validUntil: true },
  });
  const withdrawn = await tx.lockPassword.updateMany({
    where: { stayId: stay.id, hotelId: stay.hotelId, id: { not: row.id }, ...input.notConfirmed },
    data: revoke('replaced'),
  });
  return { row, withdrawn: withdrawn.count };
}
