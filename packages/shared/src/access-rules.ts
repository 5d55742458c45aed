import { z } from 'zod';
import { zInt, ZId } from './primitives';

/**
 * Access rules (issue 20 §2, docs/access-rules.md): when and how a reservation's credentials are
 * issued by themselves, per hotel and per room group where they differ.
 */

export const ACCESS_RULE_LIMITS = {
  issueDaysBeforeMax: 30,
  /** A day at most before the check-in time and after the check-out time. */
  marginMinutesMax: 1440,
} as const;

/** What a rule holds until a manager says otherwise. */
export const ACCESS_RULE_DEFAULTS = { offlineCodeMinutes: 180 } as const;

/** An arrival within this many hours whose credentials are not on its lock is an alert (Today, the board, the managers' e-mail). */
export const ARRIVAL_READY_HOURS = 24;

/** What "fix now" did for an arrival without a working key: an offline code given, its credentials sent again, or nothing left to do. */
export const ARRIVAL_FIXES = ['offline_code', 'retried', 'nothing'] as const;
export type TArrivalFix = (typeof ARRIVAL_FIXES)[number];
export const ZFixArrivalInput = z.object({ stayId: ZId });

/** How the guest's code is chosen: random, or the last 4, 5 or 6 digits of the guest's phone. */
export const ACCESS_CODE_RULES = ['random', 'phone_last4', 'phone_last5', 'phone_last6'] as const;
export type TAccessCodeRule = (typeof ACCESS_CODE_RULES)[number];

/** When the phone cannot give the code (missing, or its digits already a live code on the lock): a random code, or nothing. Either way flagged. */
export const ACCESS_PHONE_FALLBACKS = ['random', 'none'] as const;
export type TAccessPhoneFallback = (typeof ACCESS_PHONE_FALLBACKS)[number];

/**
 * Which code the lock gets: `generated` (offline: computed by the lock cloud, whole hours, to be used
 * once within 24 hours of its start, never changed before that first use), `custom` (online: our
 * digits, minute precision, needs a gateway or a WiFi lock), `auto` (custom where the lock can take
 * it, else generated). A phone rule needs a custom code: `auto` then means custom.
 */
export const ACCESS_CODE_TYPES = ['generated', 'custom', 'auto'] as const;
export type TAccessCodeType = (typeof ACCESS_CODE_TYPES)[number];

/**
 * What a rule's issue gave a reservation, stored on the stay and shown on its card:
 * `as_rule` (the rule's code), or what happened instead, never silently: the phone was missing, its
 * digits were already a live code on the lock, or the lock refuses them as too simple (code-policy.ts),
 * or they hold a 0 that the lock's keypad has no key for,
 * and a random code was issued or nothing; or the lock holds all the custom codes it can, and a
 * generated code (which takes no place among them) was issued.
 */
export const ACCESS_OUTCOMES = [
  'as_rule',
  'phone_missing_random',
  'phone_in_use_random',
  'phone_too_simple_random',
  'phone_has_zero_random',
  'phone_missing_none',
  'phone_in_use_none',
  'phone_too_simple_none',
  'phone_has_zero_none',
  'lock_full_generated',
] as const;
export type TAccessOutcome = (typeof ACCESS_OUTCOMES)[number];

/**
 * What a rule's number card gave a reservation, stored on the stay and shown on its card:
 * `card_sent` (the guest's own number card pushed to the room's lock), or `card_at_arrival` (the
 * guest has no card number yet: the desk issues a card at arrival). Never silent.
 */
export const ACCESS_CARD_OUTCOMES = ['card_sent', 'card_at_arrival'] as const;
export type TAccessCardOutcome = (typeof ACCESS_CARD_OUTCOMES)[number];

/** How many digits of the phone a code rule takes, or null for a random code. */
export function phoneDigitsOf(rule: TAccessCodeRule): number | null {
  return rule === 'random' ? null : Number(rule.slice('phone_last'.length));
}

/**
 * The code a phone rule gives for `mobile` (its last digits), else for `tail` (the last digits a
 * channel gave without the number, Airbnb's "Last 4 Digits") when it has as many digits as the rule
 * takes; null when neither has enough (a 6-digit rule is never given 4 digits: its fallback applies).
 */
export function phoneCode(mobile: string | null | undefined, digits: number, tail?: string | null): string | null {
  const only = (mobile ?? '').replace(/\D/g, '');
  if (only.length >= digits) return only.slice(-digits);
  const known = (tail ?? '').replace(/\D/g, '');
  return known.length >= digits ? known.slice(-digits) : null;
}

const bool = z.boolean({ error: 'validation.flagInvalid' });

/** A rule as a manager sets it: the hotel's (no group), or a room group's own. */
export const ZAccessRuleSetInput = z.object({
  groupId: ZId.optional(),
  enabled: bool,
  deskReservations: bool.default(false),
  issueDaysBefore: zInt({ min: 0, max: ACCESS_RULE_LIMITS.issueDaysBeforeMax }, 'accessRules.validation.daysInvalid'),
  minutesBeforeCheckIn: zInt({ min: 0, max: ACCESS_RULE_LIMITS.marginMinutesMax }, 'accessRules.validation.minutesInvalid'),
  minutesAfterCheckOut: zInt({ min: 0, max: ACCESS_RULE_LIMITS.marginMinutesMax }, 'accessRules.validation.minutesInvalid'),
  password: bool.default(true),
  face: bool.default(false),
  card: bool.default(false),
  codeRule: z.enum(ACCESS_CODE_RULES, { error: 'accessRules.validation.codeRuleInvalid' }).default('random'),
  phoneFallback: z.enum(ACCESS_PHONE_FALLBACKS, { error: 'accessRules.validation.fallbackInvalid' }).default('random'),
  codeType: z.enum(ACCESS_CODE_TYPES, { error: 'accessRules.validation.codeTypeInvalid' }).default('auto'),
  autoCheckIn: bool.default(false),
  /** Offline codes (docs/access-rules.md): this long before the check-in, a custom code the lock has not confirmed gets a generated one in its place; 0: never. */
  offlineCodeMinutes: zInt({ min: 0, max: ACCESS_RULE_LIMITS.marginMinutesMax }, 'accessRules.validation.minutesInvalid').default(
    ACCESS_RULE_DEFAULTS.offlineCodeMinutes,
  ),
});
export type TAccessRuleSetInput = z.input<typeof ZAccessRuleSetInput>;

/** The hotel's rule (no group), or the one that applies to a room group (its own, else the hotel's). */
export const ZAccessRuleGetInput = z.object({ groupId: ZId.optional() });

/** A group's own rule to drop (the hotel's then applies to it). */
export const ZAccessRuleGroupInput = z.object({ groupId: ZId });
