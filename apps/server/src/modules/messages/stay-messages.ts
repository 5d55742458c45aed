import {
  GUEST_MESSAGE_AGAIN_LIMIT,
  ZSendGuestMessageAgain,
  ZStayMessagesInput,
  type TGuestMessageChannel,
  type TGuestMessageError,
  type TGuestMessageState,
  type TGuestMessageTrigger,
} from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { consumeActionLimits } from '../../infra/action-limits';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { languageForGuest, messageGuest } from './compose';
import { queueGuestMessages, type NewGuestMessage } from './queue';

/** One line of a stay's delivery log (a DTO, never the row). */
export interface GuestMessageDto {
  id: number;
  channel: TGuestMessageChannel;
  recipient: string;
  language: string;
  state: TGuestMessageState;
  trigger: TGuestMessageTrigger;
  error: TGuestMessageError | null;
  errorDetail: string | null;
  attempts: number;
  /** While `held`: when the hotel's hourly e-mail limit makes room for it. */
  heldUntil: Date | null;
  createdAt: Date;
  sentAt: Date | null;
}

/** A stay of the actor's hotel and rooms, or "not found" (another hotel's stay, a room the member may not manage). */
async function findStay(ctx: AuthedContext, stayId: number) {
  const { actor } = ctx;
  const stay = await ctx.deps.prisma.stay.findFirst({
    where: {
      id: stayId,
      hotelId: actor.hotelId,
      ...(actor.allRooms ? {} : { room: { memberships: { some: { membershipId: actor.membershipId } } } }),
    },
    select: { id: true, hotelId: true, guests: { select: { id: true, name: true, mobile: true, email: true, isPrimary: true } } },
  });
  if (!stay) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.notFound' });
  return stay;
}

const DTO_SELECT = {
  id: true,
  channel: true,
  recipient: true,
  language: true,
  state: true,
  trigger: true,
  error: true,
  errorDetail: true,
  attempts: true,
  heldUntil: true,
  createdAt: true,
  sentAt: true,
} as const;

/** The stay's delivery log, newest first. */
export async function stayMessages(ctx: AuthedContext, raw: z.input<typeof ZStayMessagesInput>): Promise<GuestMessageDto[]> {
  requirePermission(ctx.actor, 'stay.manage');
  const { stayId } = ZStayMessagesInput.parse(raw);
  const stay = await findStay(ctx, stayId);
  const rows = await ctx.deps.prisma.guestMessage.findMany({
    where: { hotelId: stay.hotelId, stayId: stay.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 200,
    select: DTO_SELECT,
  });
  return rows as GuestMessageDto[];
}

/**
 * Sends the stay's code to its guest again (the newest password the lock confirmed), by SMS and
 * e-mail or the channel named: permission-checked, audited, a few times per stay in a window.
 */
export async function sendAgain(ctx: AuthedContext, raw: z.input<typeof ZSendGuestMessageAgain>): Promise<GuestMessageDto[]> {
  requirePermission(ctx.actor, 'stay.manage');
  const input = ZSendGuestMessageAgain.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  const password = await ctx.deps.prisma.lockPassword.findFirst({
    where: { hotelId: stay.hotelId, stayId: stay.id, deliveryState: 'on_lock', code: { not: null } },
    orderBy: [{ deliveredAt: 'desc' }, { id: 'desc' }],
    select: { id: true, code: true, guestId: true },
  });
  if (!password) throw new AppError('CONFLICT', { messageKey: 'guestMessages.errors.noCodeOnLock' });
  const guest = messageGuest(stay.guests, password.guestId);
  const messages: NewGuestMessage[] = [];
  if (guest?.mobile && (!input.channel || input.channel === 'sms')) messages.push({ channel: 'sms', recipient: guest.mobile });
  if (guest?.email && (!input.channel || input.channel === 'email')) messages.push({ channel: 'email', recipient: guest.email });
  if (!messages.length) throw new AppError('CONFLICT', { messageKey: 'guestMessages.errors.noRecipient' });
  await consumeActionLimits(ctx.deps, [{ name: 'guest-message-again', limit: GUEST_MESSAGE_AGAIN_LIMIT, key: stay.id }], 'guestMessages.errors.tooManyAgain');
  const language = await languageForGuest(ctx.deps, stay.hotelId, guest?.mobile);
  const created = await queueGuestMessages(ctx.deps, {
    hotelId: stay.hotelId,
    stayId: stay.id,
    passwordId: password.id,
    code: password.code,
    language,
    trigger: 'again',
    requestedByAccountId: ctx.actor.apiKeyId !== undefined ? null : ctx.actor.accountId,
    messages,
  });
  // A channel whose "send again" of this code is still waiting gets no second one (the partial unique
  // index GuestMessage_pending_again_key): two clicks at once send once. It is that message.
  const rows = [...created];
  for (const m of messages.filter((m) => !created.some((c) => c.channel === m.channel))) {
    const waiting = await ctx.deps.prisma.guestMessage.findFirst({
      where: { hotelId: stay.hotelId, stayId: stay.id, passwordId: password.id, channel: m.channel, trigger: 'again' },
      orderBy: { id: 'desc' },
      select: { id: true, channel: true },
    });
    if (waiting) rows.push(waiting);
  }
  await recordAudit(ctx.deps.prisma, ctx, {
    action: 'guestMessage.sendAgain',
    entityType: 'Stay',
    entityId: stay.id,
    after: { passwordId: password.id, messages: rows.map((r) => ({ id: r.id, channel: r.channel })), recipients: messages.map((m) => m.recipient) },
  });
  return (await ctx.deps.prisma.guestMessage.findMany({
    where: { id: { in: rows.map((r) => r.id) } },
    orderBy: { id: 'asc' },
    select: DTO_SELECT,
  })) as GuestMessageDto[];
}
