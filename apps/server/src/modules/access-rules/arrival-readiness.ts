import { ARRIVAL_READY_HOURS, toOneLine } from '@console/shared';
import { Prisma } from '../../generated/prisma/client';
import type { Actor, Deps, ServiceContext } from '../../context';
import { formatHotelTime } from '../messages/compose';
import { mailIdentity, mailTransport } from '../messages/mailer';
import { readMessageSettings } from '../messages/templates';
import type { TPrisma } from '../../db/client';
import type { Tx } from '../../db/transaction';

/**
 * Arrivals without a working key (issue 27, docs/access-rules.md "Arrivals not ready"): a
 * reservation whose check-in is within ARRIVAL_READY_HOURS (or has passed while the guest is
 * awaited) and that was given credentials, by the desk or an access rule (or was to be, and the
 * rule gave nothing), none of which is on its room's lock, nor an offline code. A credential on its
 * first try, written less than FIRST_TRY minutes ago, is still on its way and not counted. Shown on
 * Today and on the board's tile, sent to the managers by e-mail once, each with one "fix now".
 */

export interface NotReadyArrival {
  stayId: number;
  roomId: number;
  roomName: string;
  guestName: string;
  checkInAt: string;
  /** The lock's refusal of the newest code not confirmed (LOCK_ERROR_CODES), `no_code` when none was issued, or `not_confirmed`. */
  reason: string;
}

const FIRST_TRY = Prisma.raw(`interval '5 minutes'`);

function notReadySql(hotelId: number, now: Date, scope: Prisma.Sql, stayIds: number[] | null, limit: number | null): Prisma.Sql {
  const until = new Date(now.getTime() + ARRIVAL_READY_HOURS * 3_600_000);
  const onLock = (table: string) =>
    Prisma.sql`EXISTS (SELECT 1 FROM ${Prisma.raw(`"${table}"`)} x WHERE x."hotelId" = s."hotelId" AND x."stayId" = s."id" AND x."doorLockId" IS NULL AND x."deliveryState" = 'on_lock')`;
  return Prisma.sql`
    SELECT s."id" AS "stayId", s."roomId", r."name" AS "roomName", s."checkInAt",
           coalesce((SELECT g."name" FROM "StayGuest" g WHERE g."stayId" = s."id" ORDER BY g."isPrimary" DESC, g."id" LIMIT 1), '') AS "guestName",
           coalesce(
             (SELECT p."lastError" FROM "LockPassword" p WHERE p."hotelId" = s."hotelId" AND p."stayId" = s."id" AND p."doorLockId" IS NULL
                AND p."deliveryState" IN ('pending', 'failed', 'unknown') AND p."lastError" IS NOT NULL ORDER BY p."id" DESC LIMIT 1),
             CASE WHEN NOT EXISTS (SELECT 1 FROM "LockPassword" p WHERE p."hotelId" = s."hotelId" AND p."stayId" = s."id" AND p."doorLockId" IS NULL
                                     AND p."deliveryState" IN ('pending', 'failed', 'unknown'))
                  THEN 'no_code' ELSE 'not_confirmed' END) AS "reason",
           count(*) OVER () AS "total"
    FROM "Stay" s
    JOIN "Room" r ON r."hotelId" = s."hotelId" AND r."id" = s."roomId" AND r."deletedAt" IS NULL
    WHERE s."hotelId" = ${hotelId} AND s."status" = 'reserved' AND s."checkInAt" <= ${until} AND s."expectedCheckOutAt" > ${now}
      ${stayIds ? Prisma.sql`AND s."id" IN (${Prisma.join(stayIds.length ? stayIds : [0])})` : Prisma.empty}
      AND ${scope}
      -- Given credentials, or an access rule issued for it (and gave nothing).
      AND (s."accessIssuedAt" IS NOT NULL
           OR EXISTS (SELECT 1 FROM "LockPassword" p WHERE p."hotelId" = s."hotelId" AND p."stayId" = s."id" AND p."doorLockId" IS NULL AND p."deliveryState" IN ('pending', 'failed', 'unknown'))
           OR EXISTS (SELECT 1 FROM "FaceAuthorization" f WHERE f."hotelId" = s."hotelId" AND f."stayId" = s."id" AND f."doorLockId" IS NULL AND f."deliveryState" IN ('pending', 'failed', 'unknown')))
      AND NOT ${onLock('LockPassword')} AND NOT ${onLock('FaceAuthorization')} AND NOT ${onLock('CardGrant')}
      -- Still on its first try: on its way, not late.
      AND NOT EXISTS (SELECT 1 FROM "LockPassword" p WHERE p."hotelId" = s."hotelId" AND p."stayId" = s."id" AND p."doorLockId" IS NULL
                        AND p."deliveryState" = 'pending' AND p."attempts" = 0 AND p."lastError" IS NULL AND p."createdAt" > ${now}::timestamptz - ${FIRST_TRY})
    ORDER BY s."checkInAt", s."id"
    ${limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}`;
}

type Row = { stayId: number; roomId: number; roomName: string; checkInAt: Date; guestName: string; reason: string; total: bigint };

const toArrival = (r: Row): NotReadyArrival => ({
  stayId: r.stayId,
  roomId: r.roomId,
  roomName: r.roomName,
  guestName: r.guestName,
  checkInAt: r.checkInAt.toISOString(),
  reason: r.reason,
});

/** The actor's rooms: every room of the hotel, or a member's own (MembershipRoom). */
function actorScope(actor: Pick<Actor, 'allRooms' | 'membershipId'>): Prisma.Sql {
  return actor.allRooms
    ? Prisma.sql`TRUE`
    : Prisma.sql`EXISTS (SELECT 1 FROM "MembershipRoom" mr WHERE mr."membershipId" = ${actor.membershipId} AND mr."roomId" = s."roomId")`;
}

/** The arrivals not ready that the actor may see, the first `limit` of them and how many there are. */
export async function arrivalsNotReady(
  db: TPrisma | Tx,
  actor: Pick<Actor, 'hotelId' | 'allRooms' | 'membershipId'>,
  now: Date,
  limit: number,
): Promise<{ total: number; stays: NotReadyArrival[] }> {
  const rows = await db.$queryRaw<Row[]>(notReadySql(actor.hotelId, now, actorScope(actor), null, limit));
  return { total: Number(rows[0]?.total ?? 0), stays: rows.map(toArrival) };
}

/** Which of these stays are arrivals not ready (the board's tiles ask for the stays of their page). */
export async function notReadyAmong(db: TPrisma | Tx, hotelId: number, stayIds: number[], now: Date): Promise<Set<number>> {
  if (!stayIds.length) return new Set();
  const rows = await db.$queryRaw<Row[]>(notReadySql(hotelId, now, Prisma.sql`TRUE`, stayIds, null));
  return new Set(rows.map((r) => r.stayId));
}

/**
 * The managers are told by e-mail of the arrivals not ready (the stay sweep): each hotel's owners and
 * administrators with an e-mail address get one e-mail naming the arrivals not told before, with why
 * and where to fix them (Today), in the hotel's message language, from the install's sender; each
 * arrival is told once (`Stay.accessAlertAt`). Nothing is marked when no e-mail could go out (no
 * SMTP, no sender, no manager with an address), so Today stays the place that shows them.
 */
export async function alertManagersOfArrivals(ctx: ServiceContext, now = new Date(), scope: { hotelId?: number } = {}): Promise<number> {
  const { deps } = ctx;
  const transport = mailTransport(deps);
  if (!transport) return 0;
  const hotels = await deps.prisma.stay.findMany({
    where: {
      ...scope,
      status: 'reserved',
      accessAlertAt: null,
      checkInAt: { lte: new Date(now.getTime() + ARRIVAL_READY_HOURS * 3_600_000) },
      expectedCheckOutAt: { gt: now },
    },
    distinct: ['hotelId'],
    select: { hotelId: true },
  });
  let told = 0;
  for (const { hotelId } of hotels) {
    try {
      told += await alertHotel(deps, hotelId, now, transport);
    } catch (error) {
      deps.log.warn({ err: error, hotelId }, 'could not tell the managers of arrivals without a key');
    }
  }
  return told;
}

async function alertHotel(deps: Deps, hotelId: number, now: Date, transport: NonNullable<ReturnType<typeof mailTransport>>): Promise<number> {
  const rows = await deps.prisma.$queryRaw<Row[]>(notReadySql(hotelId, now, Prisma.sql`s."accessAlertAt" IS NULL`, null, 200));
  if (!rows.length) return 0;
  const [hotel, settings, managers] = await Promise.all([
    deps.prisma.hotel.findUniqueOrThrow({ where: { id: hotelId }, select: { name: true, timeZone: true } }),
    readMessageSettings(deps, hotelId),
    deps.prisma.membership.findMany({
      where: { hotelId, role: { in: ['owner', 'admin'] }, allRooms: true, account: { email: { not: null }, frozenAt: null } },
      select: { account: { select: { email: true } } },
    }),
  ]);
  const to = [...new Set(managers.map((m) => m.account.email!).filter((e) => e.includes('@')))];
  const identity = mailIdentity(deps.config.mail, hotel, { senderName: '', senderEmail: '' });
  if (!to.length || !identity.from) return 0;
  const lang = settings.language;
  const t = (key: string, params?: Record<string, string | number>) => deps.i18n.t(lang, key, params);
  const why = (reason: string) =>
    reason === 'no_code' ? t('today.notReady.noCode') : reason === 'not_confirmed' ? t('accessRules.offlineNotConfirmed') : t(`credentials.errors.${reason}`);
  const lines = rows.map((r) =>
    t('accessRules.alertMail.line', {
      room: toOneLine(r.roomName),
      guest: toOneLine(r.guestName) || '—',
      time: formatHotelTime(r.checkInAt, hotel.timeZone),
      why: why(r.reason),
    }),
  );
  const where = deps.config.locks.publicUrl ? `${deps.config.locks.publicUrl.replace(/\/$/, '')}/today` : t('accessRules.alertMail.openToday');
  await transport.sendMail({
    from: identity.from,
    to,
    envelope: { from: identity.envelopeFrom ?? undefined, to },
    subject: toOneLine(t('accessRules.alertMail.subject', { number: rows.length, hotel: hotel.name })),
    text: [t('accessRules.alertMail.intro', { number: rows.length }), '', ...lines, '', t('accessRules.alertMail.fix', { where })].join('\n'),
  });
  const ids = rows.map((r) => r.stayId);
  await deps.prisma.stay.updateMany({ where: { hotelId, id: { in: ids }, accessAlertAt: null }, data: { accessAlertAt: now } });
  return ids.length;
}
