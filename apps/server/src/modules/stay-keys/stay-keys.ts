import { LIMITS, ZStayIdInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { requirePermission } from '../../permissions';
import type { CardIssueDto } from '../cards/card-dto';
import { listCards } from '../cards/card-lookup';
import { lockDisplayName } from '../base/lock-ref';
import { LIVE_DELIVERY_STATES } from '../credentials/delivery-states';
import { findStay } from '../base/stay-dto';
import { listFaceAuthorizations, type FaceAuthorizationDto } from '../credentials/face-authorization.service';
import { listPasswords, type PasswordDto } from '../credentials/password.service';

/**
 * What a guest holds (issue 17 §2, "a one-time view after each change"): the stay's codes, faces
 * and cards in use, each with its validity and where it stands with the lock (the delivery state:
 * only `on_lock` is shown as working), the room's lock, and for a stay that a room change made,
 * what the old room's lock was told to refuse and how far it got. The console shows it once after
 * a check-in, a room change and a renewal, and follows it until every lock has answered.
 */
export interface StayKeysDto {
  stayId: number;
  roomId: number;
  roomName: string;
  expectedCheckOutAt: string;
  /** The room's lock (a Lock row of the hotel), or null: nothing can be delivered to the room. */
  lock: { name: string; gone: boolean } | null;
  passwords: PasswordDto[];
  faces: FaceAuthorizationDto[];
  cards: CardIssueDto[];
  /** For a stay a room change made: the old room and what its lock is told to refuse (reason `room_change`). */
  movedFrom: { stayId: number; roomId: number; roomName: string; passwords: PasswordDto[]; faces: FaceAuthorizationDto[]; cards: CardIssueDto[] } | null;
}

/** Up to a page of each: a stay holds a few credentials (at most 10 cards, CARD rules). */
const PAGE = { page: 1, pageSize: LIMITS.pageSizeMax } as const;

/** Held: on its lock, on its way there, failed (to try again) or unknown; not what is coming off (a replaced code). */
const isHeld = (c: { deliveryState: string }) => (LIVE_DELIVERY_STATES as readonly string[]).includes(c.deliveryState);

export async function stayKeys(ctx: AuthedContext, raw: z.input<typeof ZStayIdInput>): Promise<StayKeysDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const { stayId } = ZStayIdInput.parse(raw);
  // Another hotel's stay, or a room the actor does not see: "not found", like any id.
  const stay = await findStay(ctx, stayId);
  const room = await deps.prisma.room.findFirst({
    where: { id: stay.roomId, hotelId: actor.hotelId },
    select: { lock: { select: { name: true, alias: true, goneAt: true } } },
  });
  const [passwords, faces, cards] = await Promise.all([
    listPasswords(ctx, { ...PAGE, stayId, scope: 'active' }),
    listFaceAuthorizations(ctx, { ...PAGE, stayId, scope: 'active' }),
    listCards(ctx, { ...PAGE, stayId, scope: 'active' }),
  ]);
  let movedFrom: StayKeysDto['movedFrom'] = null;
  if (stay.movedFromStayId !== null) {
    const old = await findStay(ctx, stay.movedFromStayId).catch(() => null);
    if (old) {
      const [p, f, c] = await Promise.all([
        listPasswords(ctx, { ...PAGE, stayId: old.id, scope: 'all' }),
        listFaceAuthorizations(ctx, { ...PAGE, stayId: old.id, scope: 'all' }),
        listCards(ctx, { ...PAGE, stayId: old.id, scope: 'all' }),
      ]);
      const byMove = (reason: string | null) => reason === 'room_change';
      movedFrom = {
        stayId: old.id,
        roomId: old.roomId,
        roomName: old.room.name,
        passwords: p.items.filter((x) => byMove(x.revokeReason)),
        faces: f.items.filter((x) => byMove(x.revokeReason)),
        cards: c.items.filter((x) => byMove(x.endReason)),
      };
    }
  }
  return {
    stayId: stay.id,
    roomId: stay.roomId,
    roomName: stay.room.name,
    expectedCheckOutAt: stay.expectedCheckOutAt.toISOString(),
    lock: room?.lock ? { name: lockDisplayName(room.lock), gone: room.lock.goneAt !== null } : null,
    // The room's own: its copies on shared doors are shown with the doors (sharedDoor.ofStay).
    passwords: passwords.items.filter((p) => isHeld(p) && p.door === null),
    faces: faces.items.filter((f) => isHeld(f) && f.door === null),
    cards: cards.items,
    movedFrom,
  };
}
