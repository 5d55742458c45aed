import type { z } from 'zod';
import type { Actor, AuthedContext, ServiceContext } from '../../context';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a service function of any signature
type ServiceFunction = (...args: any[]) => unknown;

interface ActionBase<S extends z.ZodType> {
  /** The URL after `/manage/`, e.g. `room/tenant/list`. */
  path: string;
  /** The payload in the legacy client's own field names. */
  input: S;
  /** The domain service functions the action calls (docs/legacy-protocol.md lists them per action). */
  services: ServiceFunction[];
  /**
   * Names of the services' input fields that differ from this action's payload fields
   * (`expectedCheckOutAt` -> `check_out_time`), so an error names the field the client sent.
   * Applied per path segment, on top of COMMON_FIELD_NAMES; `''` drops the segment (`guest.name` -> `name`).
   */
  fields?: Record<string, string>;
  /**
   * Changing the password or signing out: the only actions of a session whose account signed in with
   * a password it did not choose (issue 39 §7); every other action refuses it until then.
   */
  passwordChange?: boolean;
}

/**
 * One legacy `/manage/<path>` action: the payload schema (legacy field names), whether it needs
 * a session (`X-Token`), the services it calls and the call itself. Nothing else belongs here.
 */
export type LegacyAction =
  | (ActionBase<z.ZodType> & { auth: 'public'; handle(ctx: ServiceContext, input: never): Promise<unknown> })
  | (ActionBase<z.ZodType> & { auth: 'session'; handle(ctx: AuthedContext, input: never): Promise<unknown> });

export function publicAction<S extends z.ZodType>(
  definition: ActionBase<S> & { handle: (ctx: ServiceContext, input: z.output<S>) => Promise<unknown> },
): LegacyAction {
  return { ...definition, auth: 'public', handle: definition.handle as LegacyAction['handle'] } as LegacyAction;
}

export function sessionAction<S extends z.ZodType>(
  definition: ActionBase<S> & { handle: (ctx: AuthedContext & { actor: Actor }, input: z.output<S>) => Promise<unknown> },
): LegacyAction {
  return { ...definition, auth: 'session', handle: definition.handle as LegacyAction['handle'] } as LegacyAction;
}

/**
 * A successful answer whose errmsg says more than "operation succeeded" (a status change that found
 * the room already so): `errno` stays 0, `errmsg` is `message` (already in the request's language).
 */
export class LegacyAnswer {
  constructor(
    readonly data: unknown,
    readonly message: string,
  ) {}
}

/** Service field names and the legacy names every action uses for them. */
export const COMMON_FIELD_NAMES: Record<string, string> = {
  roomId: 'room_id',
  stayId: 'stay_id',
  guestId: 'manage_id',
  groupId: 'category_id',
  templateId: 'template_id',
  roomIds: 'room_ids',
  checkInAt: 'check_in_time',
  expectedCheckOutAt: 'check_out_time',
  lengthUnit: 'time_unit',
  disableOldCards: 'disable_old_cards',
  idCardUnlock: 'id_card_unlock',
  idempotencyKey: 'request_id',
  fixedPrice: 'price',
  usualPrice: 'price',
  depositAmount: 'deposit',
  weekendPrice: 'weekend_price',
  renewalPrice: 'renewal_price',
  datePrices: 'date_prices',
  remark: 'other_information',
  birthDate: 'birth',
  idNumber: 'id_number',
  lockId: 'lock_id',
  bluetoothName: 'bluetooth_name',
  macId: 'mac_id',
  lockPower: 'lock_power',
  remarkName: 'remark_name',
  lockNotice: 'bulletin_board',
  sortOrder: 'sort',
  pageSize: 'limit',
};

/** The legacy name of a service field path (`guests.0.birthDate` -> `guests.0.birth`). */
export function legacyFieldName(path: string, fields: Record<string, string> = {}): string {
  const renamed = path
    .split('.')
    .map((segment) => (/^\d+$/.test(segment) ? segment : (fields[segment] ?? COMMON_FIELD_NAMES[segment] ?? segment)))
    .filter((segment) => segment !== '');
  return renamed.join('.') || '_';
}
