import { z } from 'zod';
import { ZId, ZCardIssueIdInput, ZCardSendInput, ZFaceAuthorizationIdInput, ZFaceAuthorizeInput, ZFaceListInput } from '@console/shared';
import { ZCardRevokeOutput, ZCardSendOutput, ZFaceAuthorizeOutput, ZFaceListOutput, ZFaceRevokeAuthorizationOutput } from '@console/shared/dto';
import { findStay } from '../../modules/base/stay-dto';
import { revokeCard } from '../../modules/cards/card-end';
import { sendCard } from '../../modules/cards/card-send';
import { authorizeFace, revokeFaceAuthorization } from '../../modules/credentials/face-authorization.service';
import { listFaces } from '../../modules/credentials/face.service';
import { ZCursorQuery, cursorPage, numberedPage, pageFrom } from './cursor';
import { apiRoute, fieldsOf, itemOf, type ApiRoute } from './route';

const ZStayPath = z.object({ stayId: ZId });

/**
 * Cards and faces of a stay (issue 29 §1): issued on the stay's lock and withdrawn from it, over
 * the services of tRPC's `card.send`, `card.revoke`, `face.list`, `face.authorize` and
 * `face.revokeAuthorization`. Their state on the lock is `GET /stays/{stayId}/credentials`.
 */
export const CARD_FACE_ROUTES: ApiRoute[] = [
  apiRoute({
    method: 'POST',
    path: '/stays/{stayId}/cards',
    operationId: 'issueStayCard',
    tag: 'Credentials',
    summary: "Send a card to the stay's lock by its number",
    description:
      'Over the air: the lock learns the card by its number (nothing is written on the card), valid for the stay and withdrawn with it. A card still issued to another stay, or reported lost, is a 409.',
    permission: 'credential.manage',
    params: ZStayPath,
    body: fieldsOf(ZCardSendInput, 'kind', 'stayId', 'roomIds', 'validFrom', 'validUntil'),
    response: ZCardSendOutput,
    status: 201,
    handle: (ctx, { params, body }) => sendCard(ctx, { ...body, kind: 'room', stayId: params.stayId }),
  }),
  apiRoute({
    method: 'POST',
    path: '/cards/{cardId}/withdraw',
    operationId: 'withdrawCard',
    tag: 'Credentials',
    summary: 'Withdraw a card from its locks',
    description: "The card issued (`id` of `issueStayCard`, or of the stay's credentials) is ended and taken off its locks.",
    permission: 'credential.manage',
    params: z.object({ cardId: ZCardIssueIdInput.shape.issueId }),
    response: ZCardRevokeOutput,
    handle: (ctx, { params }) => revokeCard(ctx, { issueId: params.cardId }),
  }),
  apiRoute({
    method: 'GET',
    path: '/faces',
    operationId: 'listFaces',
    tag: 'Credentials',
    summary: "The hotel's face database",
    description: 'The faces a stay may be given (`POST /stays/{stayId}/faces`); `search` finds one by its face id or note.',
    permission: 'room.read',
    query: fieldsOf(ZFaceListInput, 'page', 'pageSize').extend(ZCursorQuery.shape),
    response: cursorPage(itemOf(ZFaceListOutput)),
    async handle(ctx, { query }) {
      const { cursor, limit, ...filters } = query;
      const { page, pageSize } = pageFrom(cursor, limit);
      const result = await listFaces(ctx, { ...filters, page, pageSize });
      return numberedPage(result.items, page, pageSize, result.total);
    },
  }),
  apiRoute({
    method: 'POST',
    path: '/stays/{stayId}/faces',
    operationId: 'issueStayFace',
    tag: 'Credentials',
    summary: "Authorise a face on the stay's lock",
    description:
      'Valid for the stay (never beyond its check-out) and withdrawn with it; the lock gets it by itself. One live authorisation per face and room (409).',
    permission: 'credential.manage',
    params: ZStayPath,
    body: fieldsOf(ZFaceAuthorizeInput, 'id', 'roomId', 'stayId').extend({
      faceId: ZFaceAuthorizeInput.shape.id.meta({ description: 'A face of the face database (`GET /faces`).' }),
    }),
    response: ZFaceAuthorizeOutput,
    status: 201,
    async handle(ctx, { params, body }) {
      const { faceId, ...rest } = body;
      // The stay's room, as the key may see it (another hotel's stay is not found); the service checks the rest.
      const stay = await findStay(ctx, params.stayId);
      return authorizeFace(ctx, { ...rest, id: faceId, roomId: stay.roomId, stayId: stay.id });
    },
  }),
  apiRoute({
    method: 'POST',
    path: '/face-authorizations/{authorizationId}/withdraw',
    operationId: 'withdrawFace',
    tag: 'Credentials',
    summary: 'Withdraw a face from its lock',
    permission: 'credential.manage',
    params: ZFaceAuthorizationIdInput,
    response: ZFaceRevokeAuthorizationOutput,
    handle: (ctx, { params }) => revokeFaceAuthorization(ctx, params),
  }),
];
