import { z } from 'zod';
import { PASSWORD_HOLDERS, PASSWORD_KINDS, ZPasswordCreateInput, type TPasswordKind } from '@console/shared';
import { fromInputValue, toInputValue } from '@/lib/hotel-time';
import type { RouterInputs } from '@/lib/trpc-types';

export type PasswordCreateInput = RouterInputs['password']['create'];
export type PasswordHolder = (typeof PASSWORD_HOLDERS)[number];

/** The stay a password can be for: the room's current one. */
export interface StayForPassword {
  id: number;
  checkInAt: string;
  expectedCheckOutAt: string;
  guestName: string;
}

/** Form fields the API's errors may name, shown next to their field (the others inside the dialog). */
const FORM_FIELDS = ['holderName', 'accountId', 'kind', 'code', 'validFrom', 'validUntil'] as const;
export const isIssuePasswordField = (name: string) => (FORM_FIELDS as readonly string[]).includes(name);

/**
 * The "Issue password" form as its inputs hold it (times are the hotel's wall clock). Its rules are
 * those of the shared ZPasswordCreateInput, checked on what the API will receive (6 digits for a
 * custom code, a name or phone without a stay, an end after the start), with the same message
 * keys; plus what only the form knows: a staff member chosen, times filled in.
 */
export function issuePasswordFormSchema(context: { roomId: number; stay: StayForPassword | null; timeZone: string }) {
  return z
    .object({
      holder: z.enum(PASSWORD_HOLDERS),
      accountId: z.string(),
      holderName: z.string(),
      kind: z.enum(PASSWORD_KINDS),
      code: z.string(),
      validFrom: z.string(),
      validUntil: z.string(),
      permanent: z.boolean(),
    })
    .superRefine((values, ctx) => {
      const add = (path: string, message: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
      if (values.holder === 'staff' && !values.accountId) add('accountId', 'validation.staffRequired');
      if (!values.validFrom.trim()) add('validFrom', 'validation.dateTimeRequired');
      else if (!fromInputValue(values.validFrom, context.timeZone)) add('validFrom', 'validation.dateTimeInvalid');
      if (needsEnd(values)) {
        if (!values.validUntil.trim()) add('validUntil', 'validation.dateTimeRequired');
        else if (!fromInputValue(values.validUntil, context.timeZone)) add('validUntil', 'validation.dateTimeInvalid');
      }
      // The shared rules themselves, on what the API will receive (one message per field).
      const result = ZPasswordCreateInput.safeParse(toPasswordInput(values, context));
      if (result.success) return;
      const seen = new Set<string>();
      for (const issue of result.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (!isIssuePasswordField(field) || seen.has(field)) continue;
        seen.add(field);
        add(field, issue.message);
      }
    });
}
export type IssuePasswordValues = z.input<ReturnType<typeof issuePasswordFormSchema>>;

/** Whether the form asks for an end: not for a one-time password (the lock cloud sets it) nor a permanent one. */
export function needsEnd(values: { kind: TPasswordKind; permanent: boolean; holder: PasswordHolder }): boolean {
  return values.kind !== 'one_time' && (values.holder === 'stay' || !values.permanent);
}

/**
 * A new password: for the current stay when there is one, valid for the stay (from now, or its
 * check-in if it is ahead, to its check-out); otherwise for someone named, from now for a day.
 */
export function issuePasswordDefaults(stay: StayForPassword | null, timeZone: string, now = new Date()): IssuePasswordValues {
  return {
    holder: stay ? 'stay' : 'standalone',
    accountId: '',
    holderName: '',
    kind: 'custom',
    code: '',
    ...defaultValidity(stay, timeZone, now),
    permanent: false,
  };
}

/** The validity a password starts with: the stay's (from now, or its check-in if ahead), or from now for a day. */
export function defaultValidity(stay: StayForPassword | null, timeZone: string, now = new Date()): { validFrom: string; validUntil: string } {
  const start = stay && Date.parse(stay.checkInAt) > now.getTime() ? stay.checkInAt : now;
  const end = stay ? stay.expectedCheckOutAt : new Date(now.getTime() + 24 * 3_600_000);
  return { validFrom: toInputValue(start, timeZone), validUntil: toInputValue(end, timeZone) };
}

/** The API's input of the form's values (an invalid time is left out: the form has said so). */
export function toPasswordInput(values: IssuePasswordValues, context: { roomId: number; stay: StayForPassword | null; timeZone: string }): PasswordCreateInput {
  const { holder, kind } = values;
  return {
    roomId: context.roomId,
    kind,
    code: kind === 'custom' ? values.code.trim() : undefined,
    // A stay's guest and a staff member are named by the server (the main guest, the account's name).
    holderName: holder === 'standalone' ? values.holderName.trim() : '',
    stayId: holder === 'stay' ? context.stay?.id : undefined,
    accountId: holder === 'staff' && values.accountId ? Number(values.accountId) : undefined,
    validFrom: fromInputValue(values.validFrom, context.timeZone),
    validUntil: needsEnd(values) ? fromInputValue(values.validUntil, context.timeZone) : undefined,
  };
}
