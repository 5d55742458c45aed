import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for the tests (the nodemailer project's smtp-server, on a free port of
 * 127.0.0.1) that keeps every mail it is given with its envelope, as a provider's relay sees it.
 */
export interface CapturedMail {
  /** The envelope sender (MAIL FROM). */
  mailFrom: string;
  /** The envelope recipients (RCPT TO). */
  to: string[];
  raw: string;
  /** A header's value, unfolded and with its encoded words (RFC 2047) decoded; '' when absent. */
  header: (name: string) => string;
  /** Every header name of the mail, in lower case, as often as it occurs. */
  headerNames: string[];
  subject: string;
  text: string;
}

/** `=?utf-8?B?...?=` and `=?utf-8?Q?...?=` words decoded (what nodemailer writes for non-ASCII headers). */
function decodeWords(value: string): string {
  return value.replace(/(=\?[^?]+\?[bq]\?[^?]*\?=)\s+(?==\?)/gi, '$1').replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/** Decodes the parts of a mail nodemailer writes (encoded-word headers, base64 or quoted-printable text). */
export function decodeMail(raw: string, envelope: { mailFrom: string; to: string[] }): CapturedMail {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const lines = head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/);
  const header = (name: string) => {
    const line = lines.find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
    return line ? decodeWords(line.slice(name.length + 1).trim()) : '';
  };
  const body = rest.join('\n\n');
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8')
        : body;
  return {
    ...envelope,
    raw,
    header,
    headerNames: lines.map((l) => l.slice(0, Math.max(0, l.indexOf(':'))).toLowerCase()).filter(Boolean),
    subject: header('Subject'),
    text,
  };
}

/** A header's one mailbox, `Name <address>` (the name possibly quoted, escapes undone) or a bare address. */
export function mailboxOf(value: string): { name: string; address: string } {
  const angled = /^(.*?)\s*<([^<>]*)>$/.exec(value.trim());
  if (!angled) return { name: '', address: value.trim() };
  const name = angled[1]!.trim();
  return { name: /^".*"$/.test(name) ? name.slice(1, -1).replace(/\\(.)/g, '$1') : name, address: angled[2]! };
}

export interface SmtpCapture {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  mails: CapturedMail[];
  /** While true, every recipient is refused with a 550. */
  refuse: boolean;
  /** How long the server takes to accept a mail to these recipients (a slow provider), in ms. */
  slowFor: Map<string, number>;
  close: () => Promise<void>;
}

export async function startSmtpCapture(): Promise<SmtpCapture> {
  const capture: Omit<SmtpCapture, 'url' | 'close'> = { mails: [], refuse: false, slowFor: new Map() };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (capture.refuse) return callback(Object.assign(new Error('5.1.1 Mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const delay = Math.max(0, ...to.map((address) => capture.slowFor.get(address) ?? 0));
        setTimeout(() => {
          capture.mails.push(decodeMail(Buffer.concat(chunks).toString('utf8'), { mailFrom, to }));
          callback();
        }, delay);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(capture, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
