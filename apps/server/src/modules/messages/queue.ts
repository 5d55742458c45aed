import { createHash } from 'node:crypto';
import type { TGuestMessageChannel, TGuestMessageTrigger, TLanguageHeader } from '@console/shared';
import type { Deps } from '../../context';
import type { GuestMessageJobData } from '../../jobs/payloads';

export const GUEST_MESSAGE_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

export interface NewGuestMessage {
  channel: TGuestMessageChannel;
  recipient: string;
}

/** The key that keeps a code's message to one per password, code and channel. */
export function onceKey(passwordId: number, code: string, channel: TGuestMessageChannel): string {
  return `pw:${passwordId}:${createHash('sha256').update(code).digest('hex').slice(0, 16)}:${channel}`;
}

/**
 * Writes the messages to the stay's log (queued) and queues their jobs. Messages of the lock's
 * confirmation carry their once-key: one that exists already is not written again, nor sent.
 * Answers the rows written now.
 */
export async function queueGuestMessages(
  deps: Deps,
  input: {
    hotelId: number;
    stayId: number;
    passwordId: number | null;
    code: string | null;
    language: TLanguageHeader;
    trigger: TGuestMessageTrigger;
    requestedByAccountId?: number | null;
    messages: NewGuestMessage[];
  },
): Promise<{ id: number; channel: string }[]> {
  if (!input.messages.length) return [];
  const rows = await deps.prisma.guestMessage.createManyAndReturn({
    data: input.messages.map((m) => ({
      hotelId: input.hotelId,
      stayId: input.stayId,
      passwordId: input.passwordId,
      channel: m.channel,
      recipient: m.recipient,
      language: input.language,
      trigger: input.trigger,
      onceKey: input.trigger === 'on_lock' && input.passwordId !== null && input.code ? onceKey(input.passwordId, input.code, m.channel) : null,
      requestedByAccountId: input.requestedByAccountId ?? null,
    })),
    skipDuplicates: true,
    select: { id: true, channel: true },
  });
  await enqueueGuestMessages(
    deps,
    rows.map((r) => r.id),
  );
  return rows;
}

/** Queues the sending of these messages (a message's job is its id: queued twice, sent once). */
export async function enqueueGuestMessages(deps: Deps, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await deps.queues.guestMessage.addBulk(
    ids.map((messageId) => ({
      name: 'send',
      data: { messageId } satisfies GuestMessageJobData,
      opts: { ...GUEST_MESSAGE_JOB_OPTIONS, jobId: `gm-${messageId}` },
    })),
  );
}
