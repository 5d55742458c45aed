import { z } from 'zod';
import { GUEST_MESSAGE_CHANNELS, GUEST_MESSAGE_ERRORS, GUEST_MESSAGE_STATES, GUEST_MESSAGE_TRIGGERS } from '../guest-messages';
import { LANGUAGE_HEADERS, type TLanguageHeader } from '../languages';

const ZLanguageHeader = z.enum(LANGUAGE_HEADERS as [TLanguageHeader, ...TLanguageHeader[]]);

/** One line of a stay's delivery log. */
export const ZGuestMessageDto = z.object({
  id: z.number(),
  channel: z.enum(GUEST_MESSAGE_CHANNELS),
  recipient: z.string(),
  language: z.string(),
  state: z.enum(GUEST_MESSAGE_STATES),
  trigger: z.enum(GUEST_MESSAGE_TRIGGERS),
  error: z.enum(GUEST_MESSAGE_ERRORS).nullable(),
  errorDetail: z.string().nullable(),
  attempts: z.number(),
  heldUntil: z.date().nullable(),
  createdAt: z.date(),
  sentAt: z.date().nullable(),
});
export type TGuestMessageDto = z.infer<typeof ZGuestMessageDto>;

/** A message's text in one language: the hotel's own, or the product's (`isDefault`, `updatedAt` null). */
export const ZGuestMessageTemplateDto = z.object({
  channel: z.enum(GUEST_MESSAGE_CHANNELS),
  language: ZLanguageHeader,
  subject: z.string(),
  body: z.string(),
  isDefault: z.boolean(),
  updatedAt: z.date().nullable(),
});
export type TGuestMessageTemplateDto = z.infer<typeof ZGuestMessageTemplateDto>;

/** The hotel's message settings (the language and the sender). */
export const ZGuestMessageSettingsDto = z.object({ language: ZLanguageHeader, senderName: z.string(), senderEmail: z.string() });
export type TGuestMessageSettingsDto = z.infer<typeof ZGuestMessageSettingsDto>;

export const ZGuestMessageTemplatesOutput = z.object({ variables: z.array(z.string()).readonly(), templates: z.array(ZGuestMessageTemplateDto) });
export const ZGuestMessageTemplateOutput = ZGuestMessageTemplateDto.extend({ default: z.object({ subject: z.string(), body: z.string() }) });
export const ZGuestMessageSaveTemplateOutput = ZGuestMessageTemplateDto;
export const ZGuestMessageResetTemplateOutput = ZGuestMessageTemplateDto;
const ZMailbox = z.object({ name: z.string(), address: z.string() });
/**
 * The hotel's settings and what the install can send: e-mail (SMTP_URL), SMS (SMS_PROVIDER), and the
 * guest's key page link (`keyLinkAvailable`: PUBLIC_URL is set; without it messages carry no link).
 */
export const ZGuestMessageSettingsOutput = ZGuestMessageSettingsDto.extend({
  emailEnabled: z.boolean(),
  smsEnabled: z.boolean(),
  keyLinkAvailable: z.boolean(),
  /** Who guests see the hotel's e-mail from (null: the install has no sender address), where replies go. */
  sender: z.object({ from: ZMailbox.nullable(), replyTo: ZMailbox.nullable(), hotelAddressIsFrom: z.boolean() }),
  /** The hotel's hourly e-mail limit (perHour 0: none), the e-mails it holds and when the next one goes out. */
  mailLimit: z.object({ perHour: z.number(), sentLastHour: z.number(), held: z.number(), nextAt: z.date().nullable() }),
});
export const ZGuestMessageSaveSettingsOutput = ZGuestMessageSettingsDto;
export const ZGuestMessageLogOutput = z.array(ZGuestMessageDto);
export const ZGuestMessageSendAgainOutput = z.array(ZGuestMessageDto);
