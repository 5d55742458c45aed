import {
  GUEST_MESSAGE_CHANNELS,
  GUEST_MESSAGE_VARIABLES,
  LANGUAGE_HEADERS,
  SOURCE_LANGUAGE,
  unknownTemplateVariables,
  ZGuestMessageSettings,
  ZGuestMessageTemplateKey,
  ZSaveGuestMessageTemplate,
  type TGuestMessageChannel,
  type TGuestMessageSettings,
  type TLanguageHeader,
} from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext, Deps } from '../../context';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { transaction } from '../../db/transaction';
import { mailsInLastHour } from './mail-limit';
import { mailIdentity, type MailIdentity } from './mailer';
import { recordEvent } from '../../db/events';

/**
 * Guest message templates (issue 20 §3): the product's default text per channel and language
 * (locales/<language>.json, `guestMessages.defaults`), which a hotel may replace per language.
 */
export interface GuestMessageTemplateDto {
  channel: TGuestMessageChannel;
  language: TLanguageHeader;
  subject: string;
  body: string;
  /** The product's text (no text of the hotel's own). */
  isDefault: boolean;
  updatedAt: Date | null;
}

/** Each variable as itself, so i18next hands the default text over as written. */
const AS_WRITTEN = Object.fromEntries(GUEST_MESSAGE_VARIABLES.map((name) => [name, `{{${name}}}`]));

/** The product's text of one message in one language. */
export function defaultTemplate(deps: Pick<Deps, 'i18n'>, channel: TGuestMessageChannel, language: TLanguageHeader): { subject: string; body: string } {
  const t = (key: string) => deps.i18n.t(language, `guestMessages.defaults.${key}`, AS_WRITTEN);
  return channel === 'sms' ? { subject: '', body: t('sms') } : { subject: t('emailSubject'), body: t('emailBody') };
}

/** The text a hotel's message uses: its own, else the product's. */
export async function effectiveTemplate(
  deps: Pick<Deps, 'i18n' | 'prisma'>,
  hotelId: number,
  channel: TGuestMessageChannel,
  language: TLanguageHeader,
): Promise<GuestMessageTemplateDto> {
  const own = await deps.prisma.guestMessageTemplate.findUnique({
    where: { hotelId_channel_language: { hotelId, channel, language } },
    select: { subject: true, body: true, updatedAt: true },
  });
  if (own) return { channel, language, subject: own.subject, body: own.body, isDefault: false, updatedAt: own.updatedAt };
  return { channel, language, ...defaultTemplate(deps, channel, language), isDefault: true, updatedAt: null };
}

/** Every template of the actor's hotel (12 languages x 2 channels), with the variables a template may use. */
export async function listTemplates(ctx: AuthedContext): Promise<{ variables: readonly string[]; templates: GuestMessageTemplateDto[] }> {
  requirePermission(ctx.actor, 'stay.manage');
  const own = await ctx.deps.prisma.guestMessageTemplate.findMany({
    where: { hotelId: ctx.actor.hotelId },
    select: { channel: true, language: true, subject: true, body: true, updatedAt: true },
  });
  const byKey = new Map(own.map((o) => [`${o.channel}:${o.language}`, o]));
  const templates: GuestMessageTemplateDto[] = [];
  for (const language of LANGUAGE_HEADERS) {
    for (const channel of GUEST_MESSAGE_CHANNELS) {
      const o = byKey.get(`${channel}:${language}`);
      templates.push(
        o
          ? { channel, language, subject: o.subject, body: o.body, isDefault: false, updatedAt: o.updatedAt }
          : { channel, language, ...defaultTemplate(ctx.deps, channel, language), isDefault: true, updatedAt: null },
      );
    }
  }
  return { variables: GUEST_MESSAGE_VARIABLES, templates };
}

export async function getTemplate(
  ctx: AuthedContext,
  raw: z.input<typeof ZGuestMessageTemplateKey>,
): Promise<GuestMessageTemplateDto & { default: { subject: string; body: string } }> {
  requirePermission(ctx.actor, 'stay.manage');
  const { channel, language } = ZGuestMessageTemplateKey.parse(raw);
  const current = await effectiveTemplate(ctx.deps, ctx.actor.hotelId, channel, language);
  return { ...current, default: defaultTemplate(ctx.deps, channel, language) };
}

/** Refuses a template naming a variable that does not exist, naming it. */
function assertKnownVariables(input: { subject: string; body: string }): void {
  const fields: Record<string, string> = {};
  const unknown: string[] = [];
  for (const field of ['subject', 'body'] as const) {
    const names = unknownTemplateVariables(input[field]);
    if (names.length) {
      fields[field] = 'guestMessages.errors.unknownVariable';
      unknown.push(...names);
    }
  }
  if (unknown.length === 0) return;
  throw new AppError('VALIDATION', {
    messageKey: 'guestMessages.errors.unknownVariable',
    params: { names: unknown.map((n) => `{{${n}}}`).join(', ') },
    fields,
    details: { unknownVariables: unknown },
  });
}

/** Saves the hotel's own text of one message in one language (owners and administrators). */
export async function saveTemplate(ctx: AuthedContext, raw: z.input<typeof ZSaveGuestMessageTemplate>): Promise<GuestMessageTemplateDto> {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZSaveGuestMessageTemplate.parse(raw);
  const subject = input.channel === 'sms' ? '' : input.subject;
  assertKnownVariables({ subject, body: input.body });
  const hotelId = ctx.actor.hotelId;
  const { channel, language } = input;
  return transaction(ctx.deps, async (tx) => {
    const before = await tx.guestMessageTemplate.findUnique({
      where: { hotelId_channel_language: { hotelId, channel, language } },
      select: { subject: true, body: true },
    });
    const saved = await tx.guestMessageTemplate.upsert({
      where: { hotelId_channel_language: { hotelId, channel, language } },
      create: { hotelId, channel, language, subject, body: input.body },
      update: { subject, body: input.body },
      select: { id: true, subject: true, body: true, updatedAt: true },
    });
    await recordAudit(tx, ctx, {
      action: 'guestMessage.template.save',
      entityType: 'GuestMessageTemplate',
      entityId: `${channel}:${language}`,
      before: before ?? { default: true },
      after: { subject, body: input.body },
    });
    await recordEvent(tx, { hotelId, kind: 'hotel.changed' });
    return { channel, language, subject: saved.subject, body: saved.body, isDefault: false, updatedAt: saved.updatedAt };
  });
}

/** Goes back to the product's text of one message in one language. */
export async function resetTemplate(ctx: AuthedContext, raw: z.input<typeof ZGuestMessageTemplateKey>): Promise<GuestMessageTemplateDto> {
  requirePermission(ctx.actor, 'hotel.manage');
  const { channel, language } = ZGuestMessageTemplateKey.parse(raw);
  const hotelId = ctx.actor.hotelId;
  await transaction(ctx.deps, async (tx) => {
    const before = await tx.guestMessageTemplate.findUnique({
      where: { hotelId_channel_language: { hotelId, channel, language } },
      select: { id: true, subject: true, body: true },
    });
    if (before) await tx.guestMessageTemplate.delete({ where: { id: before.id } });
    await recordAudit(tx, ctx, {
      action: 'guestMessage.template.reset',
      entityType: 'GuestMessageTemplate',
      entityId: `${channel}:${language}`,
      before: before ? { subject: before.subject, body: before.body } : { default: true },
      after: { default: true },
    });
    await recordEvent(tx, { hotelId, kind: 'hotel.changed' });
  });
  return { channel, language, ...defaultTemplate(ctx.deps, channel, language), isDefault: true, updatedAt: null };
}

/** The hotel's message settings; a hotel that saved none has the source language and the install's sender. */
export async function readMessageSettings(deps: Pick<Deps, 'prisma'>, hotelId: number): Promise<TGuestMessageSettings> {
  const row = await deps.prisma.guestMessageSettings.findUnique({ where: { hotelId }, select: { language: true, senderName: true, senderEmail: true } });
  const language = (LANGUAGE_HEADERS as string[]).includes(row?.language ?? '') ? (row!.language as TLanguageHeader) : SOURCE_LANGUAGE;
  return { language, senderName: row?.senderName ?? '', senderEmail: row?.senderEmail ?? '' };
}

export interface GuestMessageSettingsView extends TGuestMessageSettings {
  emailEnabled: boolean;
  smsEnabled: boolean;
  /** Who guests see the hotel's e-mail from, and where their replies go (the saved settings). */
  sender: Pick<MailIdentity, 'from' | 'replyTo' | 'hotelAddressIsFrom'>;
  /** The hotel's hourly e-mail limit (perHour 0: none) and where it stands: e-mails held by it, and when the next goes out. */
  mailLimit: { perHour: number; sentLastHour: number; held: number; nextAt: Date | null };
  /** The guest's key page link can be sent: PUBLIC_URL is set (without it `{{keyPageLink}}` is empty, issue 27 §10). */
  keyLinkAvailable: boolean;
}

export async function getMessageSettings(ctx: AuthedContext): Promise<GuestMessageSettingsView> {
  requirePermission(ctx.actor, 'stay.manage');
  const { deps } = ctx;
  const hotelId = ctx.actor.hotelId;
  const [settings, hotel, held, sentLastHour] = await Promise.all([
    readMessageSettings(deps, hotelId),
    deps.prisma.hotel.findUniqueOrThrow({ where: { id: hotelId }, select: { name: true } }),
    deps.prisma.guestMessage.aggregate({ where: { hotelId, state: 'held' }, _count: { _all: true }, _min: { heldUntil: true } }),
    mailsInLastHour(deps, hotelId),
  ]);
  const { from, replyTo, hotelAddressIsFrom } = mailIdentity(deps.config.mail, hotel, settings);
  return {
    ...settings,
    emailEnabled: Boolean(deps.config.mail.smtpUrl),
    smsEnabled: deps.config.sms.provider !== 'none',
    sender: { from, replyTo, hotelAddressIsFrom },
    mailLimit: { perHour: deps.config.mail.hotelHourlyLimit, sentLastHour, held: held._count._all, nextAt: held._min.heldUntil },
    keyLinkAvailable: Boolean(deps.config.locks.publicUrl),
  };
}

export async function saveMessageSettings(ctx: AuthedContext, raw: z.input<typeof ZGuestMessageSettings>): Promise<TGuestMessageSettings> {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZGuestMessageSettings.parse(raw);
  const hotelId = ctx.actor.hotelId;
  return transaction(ctx.deps, async (tx) => {
    const before = await readMessageSettings({ prisma: tx as unknown as Deps['prisma'] }, hotelId);
    await tx.guestMessageSettings.upsert({ where: { hotelId }, create: { hotelId, ...input }, update: input });
    await recordAudit(tx, ctx, { action: 'guestMessage.settings.save', entityType: 'Hotel', entityId: hotelId, before, after: input });
    await recordEvent(tx, { hotelId, kind: 'hotel.changed' });
    return input;
  });
}
