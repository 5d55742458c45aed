import { toAcceptedText, type TGuestMessageChannel, type TGuestMessageError, type TLanguageHeader } from '@console/shared';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Deps } from '../../context';
import { QUEUE_NAMES } from '../../jobs/queues';
import type { GuestMessageJobData } from '../../jobs/payloads';
import { loadMessageFacts, renderMessage } from './compose';
import { takeMailPlace } from './mail-limit';
import { describeMailError, mailIdentity, mailTransport } from './mailer';
import { readMessageSettings } from './templates';
import { workerOptions } from '../../jobs/worker-options';

/** Sends queued guest messages; a server that was not reached is tried again with backoff, a refusal is final. */
export function startGuestMessageWorker(deps: Deps): Worker<GuestMessageJobData> {
  const worker = new Worker<GuestMessageJobData>(QUEUE_NAMES.guestMessage, (job, token) => sendGuestMessage(deps, job, token), workerOptions(deps, 4));
  worker.on('failed', (job, error) => {
    deps.log.info({ jobId: job?.id, attempts: job?.attemptsMade, err: error }, 'guest message not sent');
    // A job that ended while its message was still claimed (its worker stalled once too often): the
    // message is failed with why, never left "sending".
    if (job) void releaseClaim(deps, job, error).catch((e: unknown) => deps.log.error({ err: e, jobId: job.id }, 'guest message claim not released'));
  });
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

async function releaseClaim(deps: Deps, job: Job<GuestMessageJobData>, error: Error): Promise<void> {
  const message = await deps.prisma.guestMessage.findUnique({ where: { id: job.data.messageId }, select: { channel: true } });
  if (!message) return;
  await deps.prisma.guestMessage.updateMany({
    where: { id: job.data.messageId, state: 'sending', claimedBy: String(job.id ?? '') },
    data: {
      state: 'failed',
      claimedBy: null,
      error: message.channel === 'email' ? 'smtp_unreachable' : 'sms_failed',
      errorDetail: toAcceptedText(error.message).slice(0, 500),
    },
  });
}

export type SendOutcome = 'sent' | 'failed' | 'stale' | 'held';

/** An e-mail over its hotel's hourly limit: it waits until `until`. */
class HeldByLimit extends Error {
  constructor(readonly until: Date) {
    super(`held by the hotel's hourly e-mail limit until ${until.toISOString()}`);
  }
}

/** Message states a job may take a message from to send it. */
const SENDABLE = ['queued', 'held'];

/**
 * Sends one message, claimed first: the job moves it from `queued` (or `held`) to `sending` in one
 * conditional update, so of two jobs asking for the same message at once one sends it and the other
 * finds it taken ('stale'). A job run again after its worker died mid-send takes its own claim back.
 * An e-mail over the hotel's hourly limit is `held` and its job waits (delayed, no attempt spent)
 * until the hour makes room.
 */
export async function sendGuestMessage(deps: Deps, job: Job<GuestMessageJobData>, token?: string): Promise<SendOutcome> {
  const claimedBy = String(job.id ?? '');
  const claim = await deps.prisma.guestMessage.updateMany({
    where: { id: job.data.messageId, OR: [{ state: { in: SENDABLE } }, { state: 'sending', claimedBy }] },
    data: { state: 'sending', claimedBy, heldUntil: null },
  });
  if (claim.count === 0) return 'stale';
  const message = await deps.prisma.guestMessage.findUniqueOrThrow({ where: { id: job.data.messageId } });
  const mine = { id: message.id, state: 'sending', claimedBy };
  const attempts = message.attempts + 1;
  try {
    await deliverMessage(deps, message);
  } catch (raw) {
    if (raw instanceof HeldByLimit) {
      await deps.prisma.guestMessage.updateMany({ where: mine, data: { state: 'held', heldUntil: raw.until, claimedBy: null } });
      if (!token) return 'held';
      await job.moveToDelayed(raw.until.getTime(), token);
      throw new DelayedError();
    }
    const failure = raw instanceof MessageFailure ? raw : new MessageFailure('sms_failed', raw instanceof Error ? raw.message : String(raw), false);
    const last = failure.permanent || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    await deps.prisma.guestMessage.updateMany({
      where: mine,
      data: {
        attempts,
        error: failure.code,
        errorDetail: toAcceptedText(failure.detail).slice(0, 500),
        claimedBy: null,
        state: last ? 'failed' : 'queued',
      },
    });
    if (last) {
      if (failure.permanent) throw new UnrecoverableError(failure.message);
      return 'failed';
    }
    throw failure;
  }
  await deps.prisma.guestMessage.updateMany({
    where: mine,
    data: { state: 'sent', sentAt: new Date(), attempts, error: null, errorDetail: null, claimedBy: null },
  });
  return 'sent';
}

async function deliverMessage(
  deps: Deps,
  message: { id: number; hotelId: number; stayId: number; passwordId: number | null; channel: string; recipient: string; language: string },
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
  const identity = mailIdentity(deps.config.mail, facts.stay.hotel, settings);
  if (!identity.from || !identity.envelopeFrom) {
    throw new MessageFailure('not_configured', "no sender address: set SMTP_FROM, or allow the hotel's domain in SMTP_ALLOWED_SENDER_DOMAINS", true);
  }
  const heldUntil = await takeMailPlace(deps, message.hotelId, message.id);
  if (heldUntil) throw new HeldByLimit(heldUntil);
  try {
    await transport.sendMail({
      from: identity.from,
      ...(identity.replyTo ? { replyTo: identity.replyTo } : {}),
      to: message.recipient,
      envelope: { from: identity.envelopeFrom, to: message.recipient },
      subject: text.subject,
      text: text.body,
    });
  } catch (error) {
    const failure = describeMailError(error);
    throw new MessageFailure(failure.error, failure.detail, failure.permanent);
  }
}
