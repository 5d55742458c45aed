import {
  ZGuestMessageTemplatesOutput,
  ZGuestMessageTemplateOutput,
  ZGuestMessageSaveTemplateOutput,
  ZGuestMessageResetTemplateOutput,
  ZGuestMessageSettingsOutput,
  ZGuestMessageSaveSettingsOutput,
  ZGuestMessageLogOutput,
  ZGuestMessageSendAgainOutput,
} from '@console/shared/dto';
import { ZGuestMessageSettings, ZGuestMessageTemplateKey, ZSaveGuestMessageTemplate, ZSendGuestMessageAgain, ZStayMessagesInput } from '@console/shared';
import { sendAgain, stayMessages } from '../modules/messages/stay-messages';
import { getMessageSettings, getTemplate, listTemplates, resetTemplate, saveMessageSettings, saveTemplate } from '../modules/messages/templates';
import { authedProcedure, router } from './init';

/** Guest messages (issue 20 §3): templates per language, the hotel's sender, each stay's log and "send again". */
export const guestMessageRouter = router({
  templates: authedProcedure.output(ZGuestMessageTemplatesOutput).query(({ ctx }) => listTemplates(ctx)),
  template: authedProcedure
    .input(ZGuestMessageTemplateKey)
    .output(ZGuestMessageTemplateOutput)
    .query(({ ctx, input }) => getTemplate(ctx, input)),
  saveTemplate: authedProcedure
    .input(ZSaveGuestMessageTemplate)
    .output(ZGuestMessageSaveTemplateOutput)
    .mutation(({ ctx, input }) => saveTemplate(ctx, input)),
  resetTemplate: authedProcedure
    .input(ZGuestMessageTemplateKey)
    .output(ZGuestMessageResetTemplateOutput)
    .mutation(({ ctx, input }) => resetTemplate(ctx, input)),
  settings: authedProcedure.output(ZGuestMessageSettingsOutput).query(({ ctx }) => getMessageSettings(ctx)),
  saveSettings: authedProcedure
    .input(ZGuestMessageSettings)
    .output(ZGuestMessageSaveSettingsOutput)
    .mutation(({ ctx, input }) => saveMessageSettings(ctx, input)),
  log: authedProcedure
    .input(ZStayMessagesInput)
    .output(ZGuestMessageLogOutput)
    .query(({ ctx, input }) => stayMessages(ctx, input)),
  sendAgain: authedProcedure
    .input(ZSendGuestMessageAgain)
    .output(ZGuestMessageSendAgainOutput)
    .mutation(({ ctx, input }) => sendAgain(ctx, input)),
});
