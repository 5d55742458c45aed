import { z } from 'zod';
import { ZInstant, isLocalDateTime, zonedToInstant } from '@console/shared';
import type { CardIssueDto } from '../../modules/cards/card-dto';

/**
 * A time sent to the gateway: an ISO 8601 instant with its zone (`2026-11-23T12:00:00Z`,
 * `...+08:00`), or a wall-clock time `YYYY-MM-DD HH:mm[:ss]` of the hotel's time zone. Kept as
 * text here; `gatewayInstant` turns it into an instant once the hotel is known.
 */
export const ZGatewayTime = z
  .string({ error: 'validation.dateTimeInvalid' })
  .trim()
  .min(1, { error: 'validation.dateTimeRequired' })
  .max(40, { error: 'validation.dateTimeInvalid' })
  .refine((v) => isLocalDateTime(v) || ZInstant.safeParse(v).success, { error: 'validation.dateTimeInvalid' });

export function gatewayInstant(value: string, timeZone: string): Date;
export function gatewayInstant(value: string | undefined, timeZone: string): Date | undefined;
export function gatewayInstant(value: string | undefined, timeZone: string): Date | undefined {
  if (value === undefined) return undefined;
  return isLocalDateTime(value) ? zonedToInstant(value, timeZone)! : ZInstant.parse(value);
}

/** A card's writing as the gateway shows it (`issueId` names it in every call). */
export function gatewayCard(c: CardIssueDto) {
  return {
    issueId: c.id,
    cardNumber: c.cardNumber,
    uid: c.uid,
    cardType: c.kind,
    medium: c.medium,
    state: c.state,
    roomId: c.roomId,
    roomName: c.roomName,
    stayId: c.stayId,
    holderName: c.holderName,
    note: c.note,
    allRooms: c.allRooms,
    generation: c.generation,
    duplicate: c.duplicate,
    validFrom: c.validFrom,
    validUntil: c.validUntil,
    createdAt: c.createdAt,
    issuedAt: c.issuedAt,
    endedAt: c.endedAt,
    endReason: c.endReason,
    needsRewrite: c.needsRewrite,
    /** The rooms it opens and where each lock stands with it. */
    rooms: c.grants.map((g) => ({
      roomId: g.roomId,
      roomName: g.roomName,
      deliveryState: g.deliveryState,
      lastError: g.lastError,
      revokeReason: g.revokeReason,
    })),
  };
}

export type GatewayCard = ReturnType<typeof gatewayCard>;

/** Service field names and the gateway's names for them. */
export const CARD_FIELD_NAMES: Record<string, string> = {
  kind: 'cardType',
  validFrom: 'startTime',
  validUntil: 'endTime',
  from: 'startDate',
  to: 'endDate',
};
