import { z } from 'zod';
import { ZMoneyMethod } from './prices';
import { MONEY_METHODS, type TMoneyMethod } from './money';
import { WHEN_FIELDS_VALID, ZId, ZLocalDate, ZPageInput, oneLine, zInt } from './primitives';
import { REPORT_MAX_DAYS } from './reports';

/**
 * The journal (issue 36, docs/journal.md): every movement of money is an entry of lines over
 * accounts that sum to zero. The trial balance of a hotel's business date: for each account,
 * what it held before the day, the day's debits and credits, and what it holds after, with the
 * checks that the books tie.
 */

/** The journal's accounts; amounts are debits when positive, credits when negative. */
export const LEDGER_ACCOUNTS = ['guest', 'deposit', 'receivable', 'customer_balance', 'revenue_rooms', 'revenue_extras', 'tax_payable', 'money'] as const;
export const ZLedgerAccount = z.enum(LEDGER_ACCOUNTS, { error: 'validation.invalid' });
export type TLedgerAccount = z.infer<typeof ZLedgerAccount>;

export const ZTrialBalanceInput = z.object({ date: ZLocalDate });

/**
 * The drill-down of a trial balance's row: the journal lines of one business date on one account;
 * for the money account, of one way of paying, and of one cashier shift (`null`: lines of no shift).
 */
export const ZJournalLinesInput = ZPageInput.extend({
  date: ZLocalDate,
  account: ZLedgerAccount,
  method: ZMoneyMethod.optional(),
  shiftId: ZId.nullable().optional(),
}).refine((v) => v.account === 'money' || (v.method === undefined && v.shiftId === undefined), {
  error: 'validation.invalid',
  path: ['method'],
  ...WHEN_FIELDS_VALID,
});
export type TJournalLinesInput = z.input<typeof ZJournalLinesInput>;

/**
 * What a hotel gives a code of its own chart of accounts (docs/journal.md "The general-ledger
 * export"): each account, and the money account once per way of paying (`money.cash`, ...); a money
 * line takes its way's code, else the money account's.
 */
export const ACCOUNT_CODE_KEYS = [...LEDGER_ACCOUNTS, ...MONEY_METHODS.map((m) => `money.${m}` as const)] as const;
export type TAccountCodeKey = TLedgerAccount | `money.${TMoneyMethod}`;
export const ACCOUNT_CODE_MAX_LENGTH = 40;

/** The key of a line's code: its way's for money, its account's otherwise. */
export const accountCodeKey = (account: TLedgerAccount, method: string | null | undefined): TAccountCodeKey =>
  account === 'money' && method ? (`money.${method}` as TAccountCodeKey) : account;

/** The code of a line in the hotel's chart, or null when the hotel gave none. */
export function codeOfLine(codes: ReadonlyMap<string, string>, account: TLedgerAccount, method: string | null | undefined): string | null {
  return codes.get(accountCodeKey(account, method)) ?? codes.get(account) ?? null;
}

/** The hotel's codes, all at once: a key left out or blank has no code (its lines export with our account's name). */
export const ZAccountCodesInput = z.object({
  codes: z
    .array(
      z.object({
        key: z.enum(ACCOUNT_CODE_KEYS, { error: 'validation.invalid' }),
        code: oneLine(z.string({ error: 'validation.textInvalid' }).trim().max(ACCOUNT_CODE_MAX_LENGTH, { error: 'validation.textTooLong' })),
      }),
      { error: 'validation.invalid' },
    )
    .max(ACCOUNT_CODE_KEYS.length, { error: 'validation.invalid' })
    .refine((codes) => new Set(codes.map((c) => c.key)).size === codes.length, { error: 'validation.invalid' }),
});
export type TAccountCodesInput = z.input<typeof ZAccountCodesInput>;

/** The days of a general-ledger export: at most a year, as the reports. */
export const ZGeneralLedgerInput = z
  .object({ from: ZLocalDate, to: ZLocalDate })
  .refine((v) => v.from <= v.to, { error: 'validation.endAfterStart', path: ['to'], ...WHEN_FIELDS_VALID })
  .refine((v) => (Date.parse(`${v.to}T00:00:00Z`) - Date.parse(`${v.from}T00:00:00Z`)) / 86_400_000 < REPORT_MAX_DAYS, {
    error: 'reports.validation.rangeTooLong',
    path: ['to'],
    ...WHEN_FIELDS_VALID,
  });
export type TGeneralLedgerInput = z.input<typeof ZGeneralLedgerInput>;

/** The kinds of revenue a tax rate applies to (docs/journal.md "Taxes"). */
export const TAX_APPLIES_TO = ['rooms', 'extras'] as const;
export type TTaxAppliesTo = (typeof TAX_APPLIES_TO)[number];
/** A rate included in the price (the bill unchanged) or added on top of it (a tax charge on the bill). */
export const TAX_MODES = ['included', 'added'] as const;
export type TTaxMode = (typeof TAX_MODES)[number];

/**
 * The tax included in the price of a kind of revenue, set from now on: a rate in percent with up to
 * two decimals (6, 9.5, 13.25), above 0 and at most 100; null removes it. What was posted keeps the
 * rate it was posted under.
 */
export const ZTaxRuleInput = z.object({
  appliesTo: z.enum(TAX_APPLIES_TO, { error: 'validation.invalid' }),
  /** Included in the price (the default, as before) or added on top of it. */
  mode: z.enum(TAX_MODES, { error: 'validation.invalid' }).default('included'),
  ratePercent: z
    .number({ error: 'settings.validation.taxRateInvalid' })
    .refine((v) => Number.isFinite(v) && v > 0 && v <= 100 && Math.abs(v * 100 - Math.round(v * 100)) < 1e-9, { error: 'settings.validation.taxRateInvalid' })
    .nullable(),
});
export type TTaxRuleInput = z.input<typeof ZTaxRuleInput>;

/** The most a city tax may be per person and night, in minor units (10,000.00). */
export const CITY_TAX_MAX_MINOR = 1_000_000;

/**
 * The city tax from now on: an amount in the hotel's minor units per person and night, added to the
 * bill with the room charges; null removes it. Nights already charged keep what they were charged.
 */
export const ZCityTaxInput = z.object({
  amountPerNight: zInt({ min: 1, max: CITY_TAX_MAX_MINOR }, 'settings.validation.cityTaxInvalid', 'settings.validation.cityTaxInvalid').nullable(),
});
export type TCityTaxInput = z.input<typeof ZCityTaxInput>;
