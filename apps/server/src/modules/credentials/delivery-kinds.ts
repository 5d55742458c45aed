import { createHash } from 'node:crypto';
import { ceilToZoneHour, floorToZoneHour } from '@console/shared';
import type { TPrisma } from '../../db/client';
import { LockProviderError } from '../../infra/locks/provider';
import { readStoredPictureBytes } from '../../infra/uploads';
import { credentialDeliveryLock, DELIVERY_LOCK_COLUMNS, deliveryLockOf, type DeliveryLockColumns } from '../base/lock-ref';
import { DeliveryFailure, type CredentialKindHandler, type DeliveryPatch, type DeliveryStateName } from './delivery-handler';
import { lockName, lockTag, type CredentialKind } from './lock-tags';

export { CREDENTIAL_KINDS, lockName, parseLockTag, type CredentialKind } from './lock-tags';

export { DeliveryFailure, type CredentialKindHandler, type DeliveryRow, type Pushed } from './delivery-handler';

const WORK_STATES = ['pending', 'removing'] as const;

const passwordHandler: CredentialKindHandler = {
  async load(prisma, id) {
    // The password and the lock it goes to (a shared door's copy to the door's lock, any other to its
    // room's: credentialDeliveryLock) with its account, in one statement: a delivery reads it twice.
    const [p] = await prisma.$queryRaw<
      ({
        id: number;
        hotelId: number;
        roomId: number;
        deliveryState: DeliveryStateName;
        version: number;
        providerRef: string | null;
        acceptedVersion: number | null;
        validFrom: Date;
        validUntil: Date | null;
        revokeReason: string | null;
        holderName: string;
        kind: 'air' | 'custom' | 'one_time';
        code: string | null;
        l_onlinePasscodes: boolean | null;
        l_backupCodePool: boolean | null;
      } & DeliveryLockColumns)[]
    >`
      SELECT p."id", p."hotelId", p."roomId", p."deliveryState"::text AS "deliveryState", p."version", p."providerRef", p."acceptedVersion", p."validFrom",
             p."validUntil", p."revokeReason", p."holderName", p."kind"::text AS "kind", p."code", ${DELIVERY_LOCK_COLUMNS},
             l."onlinePasscodes" AS "l_onlinePasscodes", l."backupCodePool" AS "l_backupCodePool"
        FROM "LockPassword" p
        LEFT JOIN "Room" r ON r."hotelId" = p."hotelId" AND r."id" = p."roomId"
        LEFT JOIN "Lock" l ON l."hotelId" = p."hotelId" AND l."id" = COALESCE(p."doorLockId", r."lockId")
        LEFT JOIN "LockAccount" a ON a."hotelId" = l."hotelId" AND a."id" = l."accountId"
       WHERE p."id" = ${id}`;
    if (!p) return null;
    return {
      id: p.id,
      hotelId: p.hotelId,
      roomId: p.roomId,
      lock: deliveryLockOf(p),
      deliveryState: p.deliveryState,
      version: p.version,
      providerRef: p.providerRef,
      acceptedVersion: p.acceptedVersion,
      validFrom: p.validFrom,
      validUntil: p.validUntil,
      revokeReason: p.revokeReason,
      lockName: lockName('password', p.id, p.holderName),
      passwordKind: p.kind,
      code: p.code,
      // What the lock takes, as its row says (kept at each import): the platform is not asked first.
      ...(p.l_onlinePasscodes === null || p.l_backupCodePool === null
        ? {}
        : { known: { onlinePasscodes: p.l_onlinePasscodes, backupCodePool: p.l_backupCodePool } }),
    };
  },
  async findWork(prisma, scope) {
    const rows = await prisma.lockPassword.findMany({
      where: { ...scope, deliveryState: { in: [...WORK_STATES] } },
      select: { id: true, version: true },
      orderBy: { id: 'asc' },
    });
    return rows.map((r) => ({ kind: 'password' as const, id: r.id, version: r.version }));
  },
  async push(provider, lockId, row, context) {
    const window = { startAt: row.validFrom, endAt: row.validUntil };
    if (row.passwordKind === 'custom') {
      const { ref } = await provider.addCustomPasscode(lockId, { code: row.code ?? '', name: row.lockName, ...window }, row.known);
      // A platform that sets it later (Seam) has only accepted it: the engine asks until the lock has it.
      return { ref, settled: provider.confirmsWrites };
    }
    const type = generatedType(row.passwordKind ?? 'air', row.validUntil);
    // TTLock issues a generated code for given hours once: after that code was deleted it answers
    // -1026 for the same hours. The nearest periods it accepts are tried, and the password says so.
    const candidates = generatedPeriods(type, row.validFrom, row.validUntil);
    // Generated codes are whole hours of the lock's clock, which is the hotel's.
    const { timeZone } = await context.prisma.hotel.findUniqueOrThrow({ where: { id: row.hotelId }, select: { timeZone: true } });
    // Hours this console itself deleted a generated code of on this lock are not asked for again:
    // the cloud's answer is known (-1026), so the first period it accepts is asked at once.
    const deleted = row.lock ? await deletedGeneratedPeriods(context.prisma, row.hotelId, row.lock.id, row.id, candidates, timeZone) : new Set<string>();
    let refused: LockProviderError | null = null;
    for (const [i, period] of candidates.entries()) {
      if (deleted.has(periodKey(type, period, timeZone))) continue;
      try {
        const got = await provider.getRandomPasscode(lockId, { type, name: row.lockName, timeZone, startAt: period.validFrom, endAt: period.validUntil });
        return i === 0 ? got : { ...got, validity: period };
      } catch (error) {
        if (!(error instanceof LockProviderError) || error.code !== 'period_used') throw error;
        refused = error;
      }
    }
    throw refused ?? new LockProviderError('period_used', undefined, 'generated codes of every period this code may take were deleted on this lock');
  },
  async remove(provider, lockId, row) {
    if (row.providerRef) await provider.deletePasscode(lockId, row.providerRef);
  },
  async changeValidity(provider, lockId, row) {
    // A one-time password's window is fixed by the lock cloud: there is nothing to change.
    if (!row.providerRef || row.passwordKind === 'one_time') return;
    // A generated code is never changed on the lock (TTLock refuses one not used yet, -3008): the
    // services replace it with a new one (password.service.ts, newPasswordValidity).
    if (row.passwordKind !== 'custom') throw new LockProviderError('not_changeable', undefined, 'a generated passcode is replaced, never changed');
    await provider.changePasscodeValidity(lockId, row.providerRef, { startAt: row.validFrom, endAt: row.validUntil });
  },
  async state(provider, lockId, row) {
    return provider.passcodeState(lockId, row.providerRef ?? '');
  },
  async backup(provider, lockId, row) {
    // A chosen code with an end (Seam keeps no backup for an ongoing one), on a platform with a pool.
    if (!provider.pullBackupPasscode || row.passwordKind !== 'custom' || !row.providerRef || row.validUntil === null) return null;
    try {
      return await provider.pullBackupPasscode(lockId, row.providerRef);
    } catch (error) {
      if (error instanceof LockProviderError) return null;
      throw error;
    }
  },
  async findOnLock(provider, lockId, row) {
    const tag = lockTag('password', row.id);
    const found = (await provider.listPasscodes(lockId)).find((p) => p.name.trim().endsWith(tag));
    return found?.ref ?? null;
  },
  async save(prisma, id, patch) {
    await prisma.lockPassword.update({ where: { id }, data: patch });
  },
  async saveIfVersion(prisma, id, version, patch, whileAccepted) {
    const { count } = await prisma.lockPassword.updateMany({ where: { id, version, ...(whileAccepted ? { acceptedVersion: version } : {}) }, data: patch });
    return count === 1;
  },
  async transition(tx, id, from, change) {
    return (await tx.lockPassword.updateMany({ where: { id, deliveryState: { in: [...from] } }, data: change })).count;
  },
};

/**
 * Face authorisations: the face's photo made into feature data for the room's lock by the lock
 * cloud (TTLock face/getFeatureDataByPhoto), then pushed (face/add, addType 2).
 */
const faceHandler: CredentialKindHandler = {
  async load(prisma, id) {
    const a = await prisma.faceAuthorization.findUnique({
      where: { id },
      select: {
        id: true,
        hotelId: true,
        roomId: true,
        deliveryState: true,
        version: true,
        providerRef: true,
        validFrom: true,
        validUntil: true,
        revokeReason: true,
        note: true,
        doorLockId: true,
        face: { select: { note: true, imageUrl: true, imageSha256: true } },
      },
    });
    if (!a) return null;
    return {
      id: a.id,
      hotelId: a.hotelId,
      roomId: a.roomId,
      lock: await credentialDeliveryLock(prisma, a.hotelId, a.roomId, a.doorLockId),
      deliveryState: a.deliveryState,
      version: a.version,
      providerRef: a.providerRef,
      validFrom: a.validFrom,
      validUntil: a.validUntil,
      revokeReason: a.revokeReason,
      lockName: lockName('face', a.id, a.face.note),
      photo: { url: a.face.imageUrl, sha256: a.face.imageSha256 },
    };
  },
  async findWork(prisma, { guestId, customerId, ...scope }) {
    const face =
      guestId !== undefined || customerId !== undefined
        ? { face: { ...(guestId !== undefined ? { guestId } : {}), ...(customerId !== undefined ? { customerId } : {}) } }
        : {};
    const rows = await prisma.faceAuthorization.findMany({
      where: { ...scope, ...face, deliveryState: { in: [...WORK_STATES] } },
      select: { id: true, version: true },
      orderBy: { id: 'asc' },
    });
    return rows.map((r) => ({ kind: 'face' as const, id: r.id, version: r.version }));
  },
  async push(provider, lockId, row, context) {
    // The photo the face was made with: gone from the upload store, or not the same bytes, it
    // cannot become feature data (a new face with a new photo can).
    const stored = row.photo && (await readStoredPictureBytes(context.files, row.hotelId, row.photo.url));
    if (!row.photo || !stored) throw new DeliveryFailure('photo_missing', `face photo ${row.photo?.url ?? '(none)'} is not in the upload store`);
    if (createHash('sha256').update(stored.bytes).digest('hex') !== row.photo.sha256)
      throw new DeliveryFailure('photo_missing', `face photo ${row.photo.url} is not the photo the face was made with`);
    const featureData = await provider.faceFeatureData(lockId, { bytes: stored.bytes, contentType: stored.type, fileName: `face-${row.id}.${stored.ext}` });
    return provider.addFace(lockId, { featureData, name: row.lockName, startAt: row.validFrom, endAt: row.validUntil });
  },
  async remove(provider, lockId, row) {
    if (row.providerRef) await provider.deleteFace(lockId, row.providerRef);
  },
  async changeValidity(provider, lockId, row) {
    // A new period (a renewed stay): the adapter has no face period change yet, so the face comes
    // off and, answered "not found", the engine puts it there again with this version's period.
    if (row.providerRef) {
      try {
        await provider.deleteFace(lockId, row.providerRef);
      } catch (error) {
        if (!(error instanceof LockProviderError) || error.code !== 'credential_not_found') throw error;
      }
    }
    throw new LockProviderError('credential_not_found');
  },
  async findOnLock(provider, lockId, row) {
    const tag = lockTag('face', row.id);
    const found = (await provider.listFaces(lockId)).find((f) => f.name.trim().endsWith(tag));
    return found?.ref ?? null;
  },
  async save(prisma, id, patch) {
    await prisma.faceAuthorization.update({ where: { id }, data: withoutCode(patch) });
  },
  async saveIfVersion(prisma, id, version, patch) {
    const { count } = await prisma.faceAuthorization.updateMany({ where: { id, version }, data: withoutCode(patch) });
    return count === 1;
  },
  async transition(tx, id, from, change) {
    return (await tx.faceAuthorization.updateMany({ where: { id, deliveryState: { in: [...from] } }, data: change })).count;
  },
};

/** A face has no code, and its validity is never the lock cloud's choice: those patch fields never apply to it. */
function withoutCode({ code: _code, validFrom: _from, validUntil: _until, validityAdjusted: _adjusted, backupCode: _backup, ...patch }: DeliveryPatch) {
  return patch;
}

const HOUR_MS = 3_600_000;

type GeneratedType = 'one_time' | 'permanent' | 'period';

/** The lock cloud's type of a generated password: one-time, permanent (no end) or period. */
function generatedType(kind: 'air' | 'custom' | 'one_time', validUntil: Date | null): GeneratedType {
  return kind === 'one_time' ? 'one_time' : validUntil ? 'period' : 'permanent';
}

/**
 * What TTLock keys a generated code's hours by: its type and its whole hours of the lock's clock
 * (a one-time code's end follows from its start).
 */
function periodKey(type: GeneratedType, period: { validFrom: Date; validUntil: Date | null }, timeZone: string): string {
  const start = floorToZoneHour(period.validFrom, timeZone).getTime();
  if (type !== 'period' || !period.validUntil) return `${type}:${start}`;
  return `${type}:${start}:${ceilToZoneHour(period.validUntil, timeZone).getTime()}`;
}

/**
 * The periods among `candidates` for which this console deleted a generated code on this lock
 * (`lockRowId`, a Lock row): its own rows say so. A generated password that reached the lock
 * (a `providerRef`) and was taken off (`removed`: revoked, replaced by a renewal or a new code for
 * the first-use window, expired) deleted its code in the cloud; its validity is the period it was
 * got with (the one asked, or the one TTLock took instead: `validityAdjusted`), since a generated
 * code is never changed. Its lock is the shared door's (`doorLockId`) or, for a room's password,
 * the room's lock. Keys of `periodKey`.
 */
async function deletedGeneratedPeriods(
  prisma: TPrisma,
  hotelId: number,
  lockRowId: number,
  exceptId: number,
  candidates: { validFrom: Date }[],
  timeZone: string,
): Promise<Set<string>> {
  const starts = candidates.map((c) => c.validFrom.getTime());
  const rows = await prisma.lockPassword.findMany({
    where: {
      hotelId,
      id: { not: exceptId },
      kind: { in: ['air', 'one_time'] },
      deliveryState: 'removed',
      providerRef: { not: null },
      // Starts near the candidates' (whole hours either way: an hour of margin for rounding).
      validFrom: { gte: new Date(Math.min(...starts) - HOUR_MS), lte: new Date(Math.max(...starts) + HOUR_MS) },
      OR: [{ doorLockId: lockRowId }, { doorLockId: null, room: { lockId: lockRowId } }],
    },
    select: { kind: true, validFrom: true, validUntil: true },
  });
  return new Set(rows.map((r) => periodKey(generatedType(r.kind, r.validUntil), r, timeZone)));
}

/**
 * The periods a generated password may take, best first: the one asked, then (when the lock
 * cloud refuses those hours, TTLock -1026) an hour earlier, an hour longer, two hours earlier.
 * A one-time code keeps its 6 hours from its start; a permanent one has only a start.
 */
export function generatedPeriods(
  type: 'one_time' | 'permanent' | 'period',
  validFrom: Date,
  validUntil: Date | null,
): { validFrom: Date; validUntil: Date | null }[] {
  const shift = (from: number, until: number | null) => ({ validFrom: new Date(from), validUntil: until === null ? null : new Date(until) });
  const start = validFrom.getTime();
  const end = validUntil?.getTime() ?? null;
  const sameLength = (from: number) => (type === 'one_time' && end !== null ? from + (end - start) : end);
  const periods = [shift(start, end), shift(start - HOUR_MS, sameLength(start - HOUR_MS))];
  if (type === 'period' && end !== null) periods.push(shift(start, end + HOUR_MS));
  periods.push(shift(start - 2 * HOUR_MS, sameLength(start - 2 * HOUR_MS)));
  return periods;
}

/**
 * The handler of each kind the delivery engine carries. Passwords and faces are this module's own;
 * a kind another module owns registers its handler with it at start-up (cards: `card` and
 * `card_keys`, by registerCardDelivery, which wireModules (wiring.ts) calls from createDeps in every process: the API, the worker,
 * the export thread, tests), so that credentials imports no module above it
 * (docs/decisions/042-one-credential-writer.md).
 */
const handlers: Partial<Record<CredentialKind, CredentialKindHandler>> = { password: passwordHandler, face: faceHandler };

export function registerCredentialKind(kind: CredentialKind, handler: CredentialKindHandler): void {
  handlers[kind] = handler;
}

export function credentialKind(kind: CredentialKind): CredentialKindHandler {
  const handler = handlers[kind];
  if (!handler) throw new Error(`no delivery handler registered for credential kind '${kind}' (wireModules in wiring.ts registers them)`);
  return handler;
}
