import { z } from 'zod';
import { LANGUAGE_HEADERS, type TLanguageHeader } from './languages';
import { ZId, oneLine } from './primitives';

/**
 * Guest messages (issue 20 §3): the SMS and e-mail a guest gets once the lock confirmed the code,
 * from a template per hotel and language. Written once here for the server and the console.
 */
export const GUEST_MESSAGE_CHANNELS = ['sms', 'email'] as const;
export type TGuestMessageChannel = (typeof GUEST_MESSAGE_CHANNELS)[number];

/**
 * Where a message stands: queued (a job will send it), sending (a job has claimed it), held (an
 * e-mail over its hotel's hourly limit, sent once the hour makes room), sent (the provider took it),
 * failed (with why).
 */
export const GUEST_MESSAGE_STATES = ['queued', 'sending', 'held', 'sent', 'failed'] as const;
export type TGuestMessageState = (typeof GUEST_MESSAGE_STATES)[number];

/** What made a message: the lock confirming the code, or a clerk's "send again". */
export const GUEST_MESSAGE_TRIGGERS = ['on_lock', 'again'] as const;
export type TGuestMessageTrigger = (typeof GUEST_MESSAGE_TRIGGERS)[number];

/** Why a message failed (translated by the console under `guestMessages.errors.`); the provider's own answer is kept beside it. */
export const GUEST_MESSAGE_ERRORS = ['not_configured', 'smtp_refused', 'smtp_unreachable', 'sms_failed', 'no_code', 'no_stay'] as const;
export type TGuestMessageError = (typeof GUEST_MESSAGE_ERRORS)[number];

/** The variables a template may use, as `{{name}}`. */
export const GUEST_MESSAGE_VARIABLES = [
  'guest',
  'room',
  'checkIn',
  'checkOut',
  'code',
  'validFrom',
  'validUntil',
  'keyPageLink',
  'hotel',
  'hotelAddress',
  'hotelPhone',
] as const;
export type TGuestMessageVariable = (typeof GUEST_MESSAGE_VARIABLES)[number];

export const GUEST_MESSAGE_LIMITS = { subject: 200, body: 2000, senderName: 100, senderEmail: 254 } as const;

/** How many times a clerk may send a stay's messages again within the window. */
export const GUEST_MESSAGE_AGAIN_LIMIT = { points: 5, windowSeconds: 600 } as const;

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The names a template uses, in order, each once. */
export function templateVariables(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(VARIABLE)) names.add(match[1]!);
  return [...names];
}

/** The names a template uses that are not variables. */
export function unknownTemplateVariables(text: string): string[] {
  return templateVariables(text).filter((name) => !(GUEST_MESSAGE_VARIABLES as readonly string[]).includes(name));
}

/** The template with each variable replaced by its value (an unknown one stays as written). */
export function renderTemplate(text: string, values: Partial<Record<TGuestMessageVariable, string>>): string {
  return text.replace(VARIABLE, (whole, name: string) => (Object.hasOwn(values, name) ? (values[name as TGuestMessageVariable] ?? '') : whole));
}

/**
 * The template with each variable replaced by its value, where a line naming a link variable that
 * is empty (`{{keyPageLink}}` without PUBLIC_URL, or once the stay has ended) is left out whole: the
 * guest never reads a label followed by nothing.
 */
export function renderMessageText(text: string, values: Partial<Record<TGuestMessageVariable, string>>): string {
  const emptyLink = values.keyPageLink === '';
  const lines = emptyLink ? text.split('\n').filter((line) => !templateVariables(line).includes('keyPageLink')) : text.split('\n');
  return renderTemplate(lines.join('\n'), values);
}

/** Sample values for a template's preview. */
export const GUEST_MESSAGE_SAMPLE: Record<TGuestMessageVariable, string> = {
  guest: 'Lin Wei',
  room: '1208',
  checkIn: '2027-03-01 14:00',
  checkOut: '2027-03-03 12:00',
  code: '583916',
  validFrom: '2027-03-01 14:00',
  validUntil: '2027-03-03 12:00',
  keyPageLink: 'https://hotel.example.com/k/Zx8Kq2vR0mT4nP7sW1yB3cD5fG6hJ9kL2mN4pQ8rS0u',
  hotel: 'Harbour Hotel',
  hotelAddress: '1 Harbour Road',
  hotelPhone: '+86 21 5555 0100',
};

/**
 * Country calling codes -> the product's language for a guest whose stay names none, longest
 * prefix first. Numbers without a `+` (national numbers) say nothing.
 */
const PHONE_LANGUAGES: [string, TLanguageHeader][] = (
  [
    ['86', 'zh-CN'],
    ['886', 'zh-TW'],
    ['852', 'zh-TW'],
    ['853', 'zh-TW'],
    ['81', 'ja'],
    ['82', 'ko'],
    ['7', 'ru-RU'],
    ['375', 'ru-RU'],
    ['49', 'de'],
    ['43', 'de'],
    ['33', 'fr'],
    ['32', 'fr'],
    ['34', 'es'],
    ['52', 'es'],
    ['54', 'es'],
    ['57', 'es'],
    ['56', 'es'],
    ['51', 'es'],
    ['39', 'it'],
    ['351', 'pt'],
    ['55', 'pt'],
    ['244', 'pt'],
    ['966', 'ar'],
    ['971', 'ar'],
    ['20', 'ar'],
    ['965', 'ar'],
    ['974', 'ar'],
    ['973', 'ar'],
    ['968', 'ar'],
    ['962', 'ar'],
    ['961', 'ar'],
    ['212', 'ar'],
    ['213', 'ar'],
    ['216', 'ar'],
    ['964', 'ar'],
    ['1', 'en'],
    ['44', 'en'],
    ['61', 'en'],
    ['64', 'en'],
    ['353', 'en'],
    ['65', 'en'],
  ] as [string, TLanguageHeader][]
).sort((a, b) => b[0].length - a[0].length);

/** The language a phone number's country code suggests, when it is written with one (`+81...`, `0081...`). */
export function languageOfPhone(mobile: string | null | undefined): TLanguageHeader | undefined {
  if (!mobile) return undefined;
  const compact = mobile.replace(/[\s().-]/g, '');
  const digits = compact.startsWith('+') ? compact.slice(1) : compact.startsWith('00') ? compact.slice(2) : null;
  if (!digits || !/^\d+$/.test(digits)) return undefined;
  return PHONE_LANGUAGES.find(([prefix]) => digits.startsWith(prefix))?.[1];
}

/** The guest's language: the stay's own, else the phone's country code, else the hotel's. */
export function guestMessageLanguage(input: {
  stayLanguage?: TLanguageHeader | null;
  mobile?: string | null;
  hotelLanguage: TLanguageHeader;
}): TLanguageHeader {
  return input.stayLanguage ?? languageOfPhone(input.mobile) ?? input.hotelLanguage;
}

const ZLanguage = z.enum(LANGUAGE_HEADERS as [TLanguageHeader, ...TLanguageHeader[]], { error: 'validation.invalid' });
const ZChannel = z.enum(GUEST_MESSAGE_CHANNELS, { error: 'validation.invalid' });

/** A template's text (its variables are checked by the service, which names the unknown ones: `unknownTemplateVariables`). */
const templateText = (max: number) => z.string({ error: 'validation.invalid' }).max(max, { error: 'validation.textTooLong' });

export const ZGuestMessageTemplateKey = z.object({ channel: ZChannel, language: ZLanguage });
export type TGuestMessageTemplateKey = z.infer<typeof ZGuestMessageTemplateKey>;

export const ZSaveGuestMessageTemplate = ZGuestMessageTemplateKey.extend({
  /** E-mail only; an SMS has no subject. One line: it is the mail's Subject header. */
  subject: oneLine(templateText(GUEST_MESSAGE_LIMITS.subject)).default(''),
  body: templateText(GUEST_MESSAGE_LIMITS.body).refine((v) => v.trim() !== '', { error: 'guestMessages.errors.bodyRequired' }),
});
export type TSaveGuestMessageTemplate = z.input<typeof ZSaveGuestMessageTemplate>;

export const ZGuestMessageSettings = z.object({
  /** The hotel's language: what a guest gets when neither the stay nor the phone says otherwise. */
  language: ZLanguage,
  /** The display name of the hotel's e-mail (empty: the hotel's name). One line: it is written into the From header. */
  senderName: oneLine(z.string({ error: 'validation.invalid' }).trim().max(GUEST_MESSAGE_LIMITS.senderName, { error: 'validation.textTooLong' })),
  /**
   * The hotel's own address: where guests' replies go (Reply-To), and the From only when the install
   * allows its domain (SMTP_ALLOWED_SENDER_DOMAINS); otherwise From is the install's SMTP_FROM.
   */
  senderEmail: z
    .string({ error: 'validation.emailFormat' })
    .trim()
    .max(GUEST_MESSAGE_LIMITS.senderEmail, { error: 'validation.emailFormat' })
    .refine((v) => v === '' || z.email().safeParse(v).success, { error: 'validation.emailFormat' }),
});
export type TGuestMessageSettings = z.infer<typeof ZGuestMessageSettings>;

export const ZStayMessagesInput = z.object({ stayId: ZId });

export const ZSendGuestMessageAgain = z.object({
  stayId: ZId,
  /** Both channels the guest has, unless one is named. */
  channel: ZChannel.optional(),
});
