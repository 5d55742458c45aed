import {
  ZWebhookCreateOutput,
  ZWebhookDeleteOutput,
  ZWebhookDeliveriesOutput,
  ZWebhookListOutput,
  ZWebhookResendOutput,
  ZWebhookRotateOutput,
  ZWebhookUpdateOutput,
} from '@console/shared/dto';
import { ZWebhookCreateInput, ZWebhookDeliveriesInput, ZWebhookIdInput, ZWebhookResendInput, ZWebhookUpdateInput } from '@console/shared';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  resendWebhookDelivery,
  rotateWebhookSecret,
  sendWebhookTest,
  updateWebhook,
} from '../modules/webhooks/webhook.service';
import { authedProcedure, router } from './init';

/** The hotel's webhook endpoints (Settings > Webhooks, docs/webhooks.md). */
export const webhookRouter = router({
  list: authedProcedure.output(ZWebhookListOutput).query(({ ctx }) => listWebhooks(ctx)),
  create: authedProcedure
    .input(ZWebhookCreateInput)
    .output(ZWebhookCreateOutput)
    .mutation(({ ctx, input }) => createWebhook(ctx, input)),
  update: authedProcedure
    .input(ZWebhookUpdateInput)
    .output(ZWebhookUpdateOutput)
    .mutation(({ ctx, input }) => updateWebhook(ctx, input)),
  delete: authedProcedure
    .input(ZWebhookIdInput)
    .output(ZWebhookDeleteOutput)
    .mutation(({ ctx, input }) => deleteWebhook(ctx, input)),
  rotateSecret: authedProcedure
    .input(ZWebhookIdInput)
    .output(ZWebhookRotateOutput)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx, input)),
  deliveries: authedProcedure
    .input(ZWebhookDeliveriesInput)
    .output(ZWebhookDeliveriesOutput)
    .query(({ ctx, input }) => listWebhookDeliveries(ctx, input)),
  resend: authedProcedure
    .input(ZWebhookResendInput)
    .output(ZWebhookResendOutput)
    .mutation(({ ctx, input }) => resendWebhookDelivery(ctx, input)),
  sendTest: authedProcedure
    .input(ZWebhookIdInput)
    .output(ZWebhookResendOutput)
    .mutation(({ ctx, input }) => sendWebhookTest(ctx, input)),
});
