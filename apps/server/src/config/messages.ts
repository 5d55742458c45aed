import { z } from 'zod';
import type { Refusal } from './variables';

/** A domain name of at least two labels (`harbour-hotel.com`), lower case. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

function splitDomains(value: string): string[] {
  return value
    .split(',')
    .map((d) => d.trim().toLowerCase().replace(/\.$/, ''))
    .filter(Boolean);
}

/** `noreply@example.com` or `Name <noreply@example.com>` (the name possibly quoted), on one line; null otherwise. */
export function parseMailbox(value: string): { name: string; address: string } | null {
  // eslint-disable-next-line no-control-regex -- a header's value: no control character, no line break
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value)) return null;
  const trimmed = value.trim();
  const angled = /^(.*?)\s*<([^<>\s]+)>$/.exec(trimmed);
  const name = angled ? angled[1]!.replace(/^"(.*)"$/, '$1').trim() : '';
  const address = angled ? angled[2]! : trimmed;
  return z.email().safeParse(address).success ? { name, address } : null;
}

/** Text messages (SMS password recovery) and guest e-mail. */
export const messagesEnv = z.object({
  /** `dev` logs each SMS (development only), `http` posts it to SMS_HTTP_URL, `none` turns SMS password recovery off. */
  SMS_PROVIDER: z.enum(['dev', 'http', 'none']).default('dev'),
  SMS_HTTP_URL: z.string().url().optional(),
  SMS_HTTP_TOKEN: z.string().optional(),
  /** The install's SMTP server for guest e-mail (`smtp://user:password@host:587`, `smtps://...:465`); unset: no e-mail is sent. */
  SMTP_URL: z
    .string()
    .url()
    .refine((v) => /^smtps?:\/\//.test(v), { message: 'SMTP_URL must start with smtp:// or smtps://' })
    .optional(),
  /**
   * The install's own sender of guest e-mail (`noreply@example.com`, or `Console <noreply@example.com>`):
   * the envelope sender and From of every hotel whose address is not on SMTP_ALLOWED_SENDER_DOMAINS
   * (the hotel's name as display name, its address as Reply-To).
   */
  SMTP_FROM: z
    .string()
    .refine((v) => parseMailbox(v) !== null, {
      message: 'SMTP_FROM must be an e-mail address (noreply@example.com) or a name and an address (Console <noreply@example.com>), on one line',
    })
    .optional(),
  /**
   * Domains a hotel's own sender address may be on to be used as From (comma separated,
   * `harbour-hotel.com,example.org`): the install sends for them (its SMTP server, SPF and DKIM
   * cover them). A hotel's address on any other domain is only its Reply-To.
   */
  SMTP_ALLOWED_SENDER_DOMAINS: z
    .string()
    .refine((v) => splitDomains(v).every((d) => DOMAIN.test(d)), {
      message: 'SMTP_ALLOWED_SENDER_DOMAINS must be domain names separated by commas (harbour-hotel.com,example.org)',
    })
    .optional(),
  /** E-mails one hotel may send in an hour (a sliding hour); more wait for the hour to make room. 0: no limit. */
  SMTP_HOTEL_HOURLY_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(200),
});
type MessagesEnv = z.output<typeof messagesEnv>;

/** Production refuses the development SMS sender; the HTTP one needs its URL. */
export function messageRefusals(env: MessagesEnv, production: boolean): Refusal[] {
  const refusals: Refusal[] = [];
  if (production && env.SMS_PROVIDER === 'dev') {
    refusals.push({
      path: 'SMS_PROVIDER',
      message:
        'production refuses SMS_PROVIDER=dev (it writes recovery codes to the log): set SMS_PROVIDER=http with SMS_HTTP_URL, or SMS_PROVIDER=none to turn SMS password recovery off',
    });
  }
  if (env.SMS_PROVIDER === 'http' && !env.SMS_HTTP_URL) {
    refusals.push({ path: 'SMS_HTTP_URL', message: 'SMS_PROVIDER=http needs SMS_HTTP_URL' });
  }
  return refusals;
}

/** Guest e-mail: the SMTP server, the install's sender, the domains hotels may send from, and a hotel's hourly limit. */
export function mailSettings(env: MessagesEnv) {
  return {
    smtpUrl: env.SMTP_URL,
    /** SMTP_FROM read: its address, and its name when it has one. */
    from: env.SMTP_FROM ? parseMailbox(env.SMTP_FROM) : null,
    /** SMTP_ALLOWED_SENDER_DOMAINS, lower case. */
    allowedSenderDomains: splitDomains(env.SMTP_ALLOWED_SENDER_DOMAINS ?? ''),
    hotelHourlyLimit: env.SMTP_HOTEL_HOURLY_LIMIT,
  };
}
