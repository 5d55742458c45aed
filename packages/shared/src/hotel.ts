import { z } from 'zod';
import { minorDigits } from './money';
import { ZId, oneLine, whenValid } from './primitives';

/**
 * The hotel's own information (spec §3: name, address, tel, latitude and longitude) and its
 * settings (IANA time zone, ISO 4217 currency, default check-in and check-out times, the no-show time), shared by
 * the web form, tRPC and the legacy `room/*HotelInfo` actions. Messages are i18n keys.
 */
export const HOTEL_LIMITS = {
  nameMax: 100,
  addressMax: 200,
  telMax: 30,
} as const;

/** A telephone number as people write one: digits, spaces, `+`, `-`, parentheses and an extension. */
export const HOTEL_TEL_REGEX = /^[0-9+\-() ]*(?:(?:ext\.?|x|#)\s?\d{1,6})?$/i;
/**
 * The default check-in and check-out times of a new hotel (the database's defaults of
 * `Hotel.checkInTime` and `Hotel.checkOutTime`); the console proposes a stay's times from the
 * hotel's own, these only when it could not read them.
 */
export const HOTEL_DEFAULT_TIMES = { checkInTime: '14:00', checkOutTime: '12:00' } as const;

/** A time of day, `HH:mm` (00:00 to 23:59). */
export const TIME_OF_DAY_REGEX = /^([01]\d|2[0-3]):[0-5]\d$/;

let zones: Set<string> | undefined;
/** The IANA time zones this runtime knows (`Intl.supportedValuesOf('timeZone')`), and UTC. */
export function isTimeZone(value: string): boolean {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return zones.has(value);
}

let currencies: Set<string> | undefined;
/** An ISO 4217 code this runtime knows (`Intl.supportedValuesOf('currency')`). */
export function isCurrency(value: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(value);
}

/** Whether changing currency keeps stored amounts meaning the same (both have as many minor digits). */
export function isCurrencyChangeSafe(from: string, to: string): boolean {
  return minorDigits(from) === minorDigits(to);
}

/** One line: the hotel's name is the display name of its guests' e-mail (a header). */
const ZHotelName = oneLine(
  z
    .string({ error: 'settings.validation.hotelNameRequired' })
    .trim()
    .min(1, { error: 'settings.validation.hotelNameRequired' })
    .max(HOTEL_LIMITS.nameMax, { error: 'validation.textTooLong' }),
);
const ZHotelAddress = z.string({ error: 'validation.textInvalid' }).trim().max(HOTEL_LIMITS.addressMax, { error: 'validation.textTooLong' });
const ZHotelTel = z
  .string({ error: 'settings.validation.telInvalid' })
  .trim()
  .max(HOTEL_LIMITS.telMax, { error: 'settings.validation.telInvalid' })
  .regex(HOTEL_TEL_REGEX, { error: 'settings.validation.telInvalid' });

/** A coordinate in degrees, a number or decimal text (`31.2304`), at most 6 decimals kept; `null` or `''` clears it. */
function zCoordinate(limit: number, message: string) {
  const number = z.number({ error: message }).finite({ error: message }).min(-limit, { error: message }).max(limit, { error: message });
  return z
    .union(
      [
        number,
        z
          .string({ error: message })
          .trim()
          .regex(/^-?\d{1,3}(\.\d{1,12})?$/, { error: message })
          .transform(Number)
          .pipe(number),
        z.literal('').transform(() => null),
        z.null(),
      ],
      {
        error: message,
      },
    )
    .transform((v) => (v === null ? null : Math.round(v * 1e6) / 1e6));
}
export const ZLatitude = zCoordinate(90, 'settings.validation.latitudeInvalid');
export const ZLongitude = zCoordinate(180, 'settings.validation.longitudeInvalid');

export const ZTimeZone = z.string({ error: 'settings.validation.timeZoneInvalid' }).trim().refine(isTimeZone, { error: 'settings.validation.timeZoneInvalid' });
export const ZCurrency = z
  .string({ error: 'settings.validation.currencyInvalid' })
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => /^[A-Z]{3}$/.test(v) && isCurrency(v), { error: 'settings.validation.currencyInvalid' });
export const ZTimeOfDay = z
  .string({ error: 'settings.validation.timeOfDayInvalid' })
  .trim()
  .regex(TIME_OF_DAY_REGEX, { error: 'settings.validation.timeOfDayInvalid' });

/**
 * A change of the hotel's information: any of its fields (at least one). `hotelId`, when given,
 * must be the actor's own hotel (another hotel's id is "not found").
 */
/** What the night audit does with a reservation whose guest never came (docs/reports.md "The day close"). */
export const NO_SHOW_POLICIES = ['release', 'charge_first_night'] as const;
export type TNoShowPolicy = (typeof NO_SHOW_POLICIES)[number];

export const ZUpdateHotelInput = z
  .object({
    hotelId: ZId.optional(),
    name: ZHotelName.optional(),
    address: ZHotelAddress.optional(),
    tel: ZHotelTel.optional(),
    latitude: ZLatitude.optional(),
    longitude: ZLongitude.optional(),
    timeZone: ZTimeZone.optional(),
    currency: ZCurrency.optional(),
    checkInTime: ZTimeOfDay.optional(),
    checkOutTime: ZTimeOfDay.optional(),
    /** When a reservation whose guest has not come becomes a no-show (`noShowDeadline`): `HH:mm`, 00:00 the end of the arrival day. */
    noShowTime: ZTimeOfDay.optional(),
    /** When the day before closes by itself (docs/reports.md): `HH:mm`, or null (or empty): a manager closes each day. */
    dayCloseTime: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), ZTimeOfDay.nullable()).optional(),
    /** What the night audit does with a no-show (docs/reports.md): release its room, or charge its first night as well. */
    noShowPolicy: z.enum(NO_SHOW_POLICIES, { error: 'settings.validation.noShowPolicyInvalid' }).optional(),
  })
  .refine((v) => (v.latitude === undefined) === (v.longitude === undefined) && (v.latitude === null) === (v.longitude === null), {
    error: 'settings.validation.coordinatesTogether',
    path: ['longitude'],
    ...whenValid('latitude', 'longitude'),
  });
export type TUpdateHotelInput = z.output<typeof ZUpdateHotelInput>;
export type TUpdateHotelFormInput = z.input<typeof ZUpdateHotelInput>;

export const HOTEL_FIELDS = [
  'name',
  'address',
  'tel',
  'latitude',
  'longitude',
  'timeZone',
  'currency',
  'checkInTime',
  'checkOutTime',
  'noShowTime',
  'dayCloseTime',
  'noShowPolicy',
] as const;
export type THotelField = (typeof HOTEL_FIELDS)[number];
