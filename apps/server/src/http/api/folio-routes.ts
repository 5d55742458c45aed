import { z } from 'zod';
import { ZFolioInput, ZId, ZStayMoneyInput } from '@console/shared';
import { ZOrderFolioOutput, ZOrderRecordPaymentOutput } from '@console/shared/dto';
import { recordPayment } from '../../modules/orders/payments';
import { getFolio } from '../../modules/orders/settlement.service';
import { apiRoute, fieldsOf, type ApiRoute } from './route';

const ZStayPath = z.object({ stayId: ZId });

/** A stay's folio over the JSON API: its entries and balance, and a payment recorded on it (the services of tRPC's `order.folio` and `order.recordPayment`). */
export const FOLIO_ROUTES: ApiRoute[] = [
  apiRoute({
    method: 'GET',
    path: '/stays/{stayId}/folio',
    operationId: 'getFolio',
    tag: 'Folio',
    summary: "A stay's folio: its entries and balance",
    description: 'Amounts are integers in the minor unit of the hotel currency.',
    permission: 'stay.manage',
    params: z.object({ stayId: ZFolioInput.shape.stayId }),
    response: ZOrderFolioOutput,
    handle: (ctx, { params }) => getFolio(ctx, params),
  }),
  apiRoute({
    method: 'POST',
    path: '/stays/{stayId}/payments',
    operationId: 'recordPayment',
    tag: 'Folio',
    summary: 'Record a payment on the folio',
    description: "The `Idempotency-Key` is the payment's key for good: sent again, it answers the same entry.",
    permission: 'stay.manage',
    params: ZStayPath,
    body: fieldsOf(ZStayMoneyInput, 'stayId', 'requestId'),
    response: ZOrderRecordPaymentOutput,
    status: 201,
    handle: (ctx, { params, body, idempotencyKey }) => recordPayment(ctx, { ...body, stayId: params.stayId, requestId: idempotencyKey }),
  }),
];
