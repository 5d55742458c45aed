import nodemailer, { type Transporter } from 'nodemailer';
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

/**
 * The sender of a hotel's e-mail: its own address (with its sender name, else the hotel's name),
 * else the install's SMTP_FROM (a bare address gets the hotel's name); null when neither is set.
 */
export function mailSender(
  deps: Pick<Deps, 'config'>,
  hotel: { name: string },
  settings: { senderName: string; senderEmail: string },
): { name: string; address: string } | string | null {
  const name = settings.senderName || hotel.name;
  if (settings.senderEmail) return { name, address: settings.senderEmail };
  const from = deps.config.mail.from?.trim();
  if (!from) return null;
  return from.includes('<') ? from : { name, address: from };
}
