import { toAcceptedText, type TGuestMessageChannel, type TGuestMessageError, type TLanguageHeader } from '@console/shared';
import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Deps } from '../../context';
import { QUEUE_NAMES } from '../../jobs/queues';
import type { GuestMessageJobData } from '../../jobs/payloads';
import { loadMessageFacts, renderMessage } from './compose';
import { describeMailError, mailSender, mailTransport } from './mailer';
import { readMessageSettings } from './templates';

/** Sends queued guest messages; a server that was not reached is tried again with backoff, a refusal is final. */
export function startGuestMessageWorker(deps: Deps): Worker<GuestMessageJobData> {
  const worker = new Worker<GuestMessageJobData>(QUEUE_NAMES.guestMessage, (job) => sendGuestMessage(deps, job), {
    connection: deps.queues.connection() as ConnectionOptions,
    prefix: deps.queues.prefix,
    concurrency: 4,
    name: deps.instance,
  });
  worker.on('failed', (job, error) => deps.log.info({ jobId: job?.id, attempts: job?.attemptsMade, err: error }, 'guest message not sent'));
  worker.on('error', (error) => deps.log.error({ err: error }, 'guest message worker error'));
  return worker;
}

class MessageFailure extends Error {
  constructor(
    readonly code: TGuestMessageError,
    readonly detail: string,
    readonly permanent: boolean,
  ) {
    super(`${code}: ${detail}`);
  }
}

export type SendOutcome = 'sent' | 'failed' | 'stale';

export async function sendGuestMessage(deps: Deps, job: Job<GuestMessageJobData>): Promise<SendOutcome> {
  const message = await deps.prisma.guestMessage.findUnique({ where: { id: job.data.messageId } });
  if (!message || message.state !== 'queued') return 'stale';
  const attempts = message.attempts + 1;
  try {
    await deliverMessage(deps, message);
  } catch (raw) {
    const failure = raw instanceof MessageFailure ? raw : new MessageFailure('sms_failed', raw instanceof Error ? raw.message : String(raw), false);
    const last = failure.permanent || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    await deps.prisma.guestMessage.updateMany({
      where: { id: message.id, state: 'queued' },
      data: { attempts, error: failure.code, errorDetail: toAcceptedText(failure.detail).slice(0, 500), ...(last ? { state: 'failed' } : {}) },
    });
    if (last) {
      if (failure.permanent) throw new UnrecoverableError(failure.message);
      return 'failed';
    }
    throw failure;
  }
  await deps.prisma.guestMessage.updateMany({
    where: { id: message.id, state: 'queued' },
    data: { state: 'sent', sentAt: new Date(), attempts, error: null, errorDetail: null },
  });
  return 'sent';
}

async function deliverMessage(
  deps: Deps,
  message: { hotelId: number; stayId: number; passwordId: number | null; channel: string; recipient: string; language: string },
): Promise<void> {
  const facts = await loadMessageFacts(deps, message.hotelId, message.stayId, message.passwordId);
  if (!facts) throw new MessageFailure('no_stay', 'the stay is gone', true);
  if (!facts.password?.code) throw new MessageFailure('no_code', 'the password has no code', true);
  const channel = message.channel as TGuestMessageChannel;
  const text = await renderMessage(deps, message.hotelId, channel, message.language as TLanguageHeader, facts);
  if (channel === 'sms') {
    if (deps.config.sms.provider === 'none') throw new MessageFailure('not_configured', 'SMS_PROVIDER=none', true);
    try {
      await deps.sms.send({ to: message.recipient, text: text.body });
    } catch (error) {
      throw new MessageFailure('sms_failed', error instanceof Error ? error.message : String(error), false);
    }
    return;
  }
  const transport = mailTransport(deps);
  if (!transport) throw new MessageFailure('not_configured', 'SMTP_URL is not set', true);
  const settings = await readMessageSettings(deps, message.hotelId);
  const from = mailSender(deps, facts.stay.hotel, settings);
  if (!from) throw new MessageFailure('not_configured', 'no sender address: set SMTP_FROM, or the hotel sender', true);
  try {
    await transport.sendMail({ from, to: message.recipient, subject: text.subject, text: text.body });
  } catch (error) {
    const failure = describeMailError(error);
    throw new MessageFailure(failure.error, failure.detail, failure.permanent);
  }
}
