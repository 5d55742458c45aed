import nodemailer, { type Transporter } from 'nodemailer';
import { isEmail, toOneLine, unacceptedLineReason } from '@console/shared';
import type { TConfig } from '../../config';
import type { Deps } from '../../context';

/**
 * The install's SMTP server (SMTP_URL), through nodemailer. One transport per configuration;
 * none when SMTP_URL is unset (e-mail is then "not configured", said on each message).
 */
const transports = new WeakMap<object, Transporter>();

export function mailTransport(deps: Pick<Deps, 'config'>): Transporter | null {
  const url = deps.config.mail.smtpUrl;
  if (!url) return null;
  let transport = transports.get(deps.config);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(deps.config, transport);
  }
  return transport;
}

export interface MailFailure {
  /** An SMTP answer the server gave for good (5xx): trying again changes nothing. */
  permanent: boolean;
  error: 'smtp_refused' | 'smtp_unreachable';
  detail: string;
}

/** What a failed send means: refused by the server (its answer), or the server not reached. */
export function describeMailError(error: unknown): MailFailure {
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string };
  if (typeof e.responseCode === 'number') {
    return { permanent: e.responseCode >= 500, error: 'smtp_refused', detail: (e.response ?? e.message ?? String(e.responseCode)).slice(0, 500) };
  }
  return { permanent: false, error: 'smtp_unreachable', detail: `${e.code ? `${e.code}: ` : ''}${e.message ?? String(error)}`.slice(0, 500) };
}

/** A mailbox of a header: a display name (one line) and an address. */
export interface Mailbox {
  name: string;
  address: string;
}

/**
 * Who a hotel's e-mail is from, as a careful provider sends it (issue 27 §8): the install's SMTP
 * server is only asked to send as an address the install owns.
 * - The hotel's own address (Guest messages page) is the From and the envelope sender only when
 *   its domain is on SMTP_ALLOWED_SENDER_DOMAINS (exactly that domain, any case): the install
 *   sends for it.
 * - Otherwise From and envelope sender are the install's SMTP_FROM address, under the hotel's name.
 * - The hotel's address, whatever its domain, is the Reply-To: guests' replies reach the hotel.
 * Display names are one line (`toOneLine`: a name kept before the rule loses its breaks here).
 */
export interface MailIdentity {
  /** What guests see as the sender; null when the install has no address to send with (no SMTP_FROM). */
  from: Mailbox | null;
  /** Where guests' replies go: the hotel's own address; null when it named none. */
  replyTo: Mailbox | null;
  /** The envelope sender (MAIL FROM), where bounces go: the From's address. */
  envelopeFrom: string | null;
  /** The hotel's own address is the From (its domain is allowed by the install). */
  hotelAddressIsFrom: boolean;
}

export function mailIdentity(
  mail: Pick<TConfig['mail'], 'from' | 'allowedSenderDomains'>,
  hotel: { name: string },
  settings: { senderName: string; senderEmail: string },
): MailIdentity {
  const name = toOneLine(settings.senderName) || toOneLine(hotel.name) || mail.from?.name || '';
  const own = settings.senderEmail.trim();
  const ownAddress = own && isEmail(own) && unacceptedLineReason(own) === undefined ? own : '';
  const replyTo = ownAddress ? { name, address: ownAddress } : null;
  const domain = ownAddress.slice(ownAddress.lastIndexOf('@') + 1).toLowerCase();
  if (ownAddress && mail.allowedSenderDomains.includes(domain)) {
    return { from: { name, address: ownAddress }, replyTo, envelopeFrom: ownAddress, hotelAddressIsFrom: true };
  }
  const from = mail.from ? { name, address: mail.from.address } : null;
  return { from, replyTo, envelopeFrom: from?.address ?? null, hotelAddressIsFrom: false };
}
