import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { transaction } from '../../db/transaction';
import { recordEvent } from '../../db/events';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { READER_LIMITS, ZBindReaderInput, ZReaderIdInput, ZRegisterReaderInput, ZRenameReaderInput } from '@console/shared';

/**
 * The hotel's desk card readers (issue 8 §3, spec §2 `/bindCardReaderToUser`): a reader is known
 * by the device id and serial number it reports when opened, has a name, and may be bound to one
 * account of the hotel, whose desk it is; the console picks the reader bound to the signed-in
 * account (`readerForMe`). An account has at most one reader per hotel.
 *
 * Who may do what: every member sees the registry (`room.read`); registering the reader at one's
 * own desk and binding an unbound reader to oneself are front-desk work (`credential.manage`);
 * naming readers, binding them to others, taking a reader from someone and deleting need
 * `hotel.manage`. Everything is scoped to the actor's hotel: another hotel's reader is "not found".
 */

export interface ReaderAccountDto {
  id: number;
  nickname: string;
  mobile: string | null;
}

export interface CardReaderDto {
  id: number;
  deviceId: string;
  serial: string;
  name: string;
  readerType: 1 | 2 | 3;
  boundAccount: ReaderAccountDto | null;
  createdAt: string;
  updatedAt: string;
}

const SELECT = {
  id: true,
  deviceId: true,
  serial: true,
  name: true,
  readerType: true,
  boundAccountId: true,
  createdAt: true,
  updatedAt: true,
  boundAccount: { select: { id: true, nickname: true, mobile: true } },
} as const;

type Row = {
  id: number;
  deviceId: string;
  serial: string;
  name: string;
  readerType: number;
  boundAccountId: number | null;
  createdAt: Date;
  updatedAt: Date;
  boundAccount: ReaderAccountDto | null;
};

function toDto(row: Row): CardReaderDto {
  return {
    id: row.id,
    deviceId: row.deviceId,
    serial: row.serial,
    name: row.name,
    readerType: row.readerType as 1 | 2 | 3,
    boundAccount: row.boundAccount ? { id: row.boundAccount.id, nickname: row.boundAccount.nickname, mobile: row.boundAccount.mobile } : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const notFound = () => new AppError('NOT_FOUND', { messageKey: 'deskReaders.errors.readerNotFound' });

async function findReader(ctx: AuthedContext, id: number): Promise<Row> {
  const row = await ctx.deps.prisma.cardReader.findFirst({ where: { id, hotelId: ctx.actor.hotelId }, select: SELECT });
  if (!row) throw notFound();
  return row;
}

/** Every reader of the hotel with the account it is bound to, by name then device id. */
export async function listReaders(ctx: AuthedContext): Promise<{ items: CardReaderDto[] }> {
  requirePermission(ctx.actor, 'room.read');
  const rows = await ctx.deps.prisma.cardReader.findMany({
    where: { hotelId: ctx.actor.hotelId },
    select: SELECT,
    orderBy: [{ id: 'asc' }],
    take: READER_LIMITS.listMax,
  });
  return { items: rows.map(toDto) };
}

/** The reader bound to the signed-in account in this hotel, or null. */
export async function readerForMe(ctx: AuthedContext): Promise<CardReaderDto | null> {
  const row = await ctx.deps.prisma.cardReader.findFirst({ where: { hotelId: ctx.actor.hotelId, boundAccountId: ctx.actor.accountId }, select: SELECT });
  return row ? toDto(row) : null;
}

/**
 * Registers the reader attached to the caller's computer from what it reported when opened: a new
 * device id is added (with the name given); a known one gets the serial number and type it reports
 * now (its name and binding stay). Answers the reader.
 */
export async function registerReader(ctx: AuthedContext, raw: z.input<typeof ZRegisterReaderInput>): Promise<CardReaderDto> {
  requirePermission(ctx.actor, 'credential.manage');
  const input = ZRegisterReaderInput.parse(raw);
  const { hotelId } = ctx.actor;
  return transaction(ctx.deps, async (tx) => {
    const existing = await tx.cardReader.findUnique({ where: { hotelId_deviceId: { hotelId, deviceId: input.deviceId } }, select: SELECT });
    if (existing) {
      // Its name and binding stay: naming is done in the registry.
      if (existing.serial === input.serial && existing.readerType === input.readerType) return toDto(existing);
      const updated = await tx.cardReader.update({ where: { id: existing.id }, data: { serial: input.serial, readerType: input.readerType }, select: SELECT });
      await recordAudit(tx, ctx, {
        action: 'reader.register',
        entityType: 'CardReader',
        entityId: existing.id,
        before: { serial: existing.serial, readerType: existing.readerType },
        after: { serial: updated.serial, readerType: updated.readerType },
      });
      await recordEvent(tx, { hotelId, kind: 'device.changed' });
      return toDto(updated);
    }
    const created = await tx.cardReader.create({
      data: { hotelId, deviceId: input.deviceId, serial: input.serial, readerType: input.readerType, name: input.name ?? '' },
      select: SELECT,
    });
    await recordAudit(tx, ctx, {
      action: 'reader.register',
      entityType: 'CardReader',
      entityId: created.id,
      after: { deviceId: created.deviceId, serial: created.serial, readerType: created.readerType, name: created.name },
    });
    await recordEvent(tx, { hotelId, kind: 'device.changed' });
    return toDto(created);
  });
}

export async function renameReader(ctx: AuthedContext, raw: z.input<typeof ZRenameReaderInput>): Promise<CardReaderDto> {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZRenameReaderInput.parse(raw);
  const reader = await findReader(ctx, input.id);
  if (reader.name === input.name) return toDto(reader);
  return transaction(ctx.deps, async (tx) => {
    const updated = await tx.cardReader.update({ where: { id: reader.id }, data: { name: input.name }, select: SELECT });
    await recordAudit(tx, ctx, {
      action: 'reader.rename',
      entityType: 'CardReader',
      entityId: reader.id,
      before: { name: reader.name },
      after: { name: input.name },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'device.changed' });
    return toDto(updated);
  });
}

/**
 * Binds a reader to an account of the hotel: the desk of that account. The account's other reader
 * in this hotel, if any, is unbound in the same transaction (one reader per account). Binding an
 * unbound reader (or one already one's own) to oneself is front-desk work; anything else needs
 * `hotel.manage`.
 */
export async function bindReader(ctx: AuthedContext, raw: z.input<typeof ZBindReaderInput>): Promise<CardReaderDto> {
  const input = ZBindReaderInput.parse(raw);
  const { actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const reader = await findReader(ctx, input.id);
  const isSelfService = input.accountId === actor.accountId && (reader.boundAccountId === null || reader.boundAccountId === actor.accountId);
  if (!isSelfService) requirePermission(actor, 'hotel.manage');
  if (reader.boundAccountId === input.accountId) return toDto(reader);
  const member = await ctx.deps.prisma.membership.findFirst({
    where: { hotelId: actor.hotelId, accountId: input.accountId, account: { frozenAt: null } },
    select: { accountId: true },
  });
  if (!member)
    throw new AppError('NOT_FOUND', { messageKey: 'deskReaders.errors.accountNotFound', fields: { accountId: 'deskReaders.errors.accountNotFound' } });
  return transaction(ctx.deps, async (tx) => {
    const previous = await tx.cardReader.findFirst({ where: { hotelId: actor.hotelId, boundAccountId: input.accountId }, select: { id: true } });
    if (previous) await tx.cardReader.update({ where: { id: previous.id }, data: { boundAccountId: null } });
    const updated = await tx.cardReader.update({ where: { id: reader.id }, data: { boundAccountId: input.accountId }, select: SELECT });
    await recordAudit(tx, ctx, {
      action: 'reader.bind',
      entityType: 'CardReader',
      entityId: reader.id,
      before: { boundAccountId: reader.boundAccountId },
      after: { boundAccountId: input.accountId, ...(previous ? { unboundReaderId: previous.id } : {}) },
    });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'device.changed' });
    return toDto(updated);
  });
}

/** Unbinds a reader: one's own with `credential.manage`, anyone's with `hotel.manage`. */
export async function unbindReader(ctx: AuthedContext, raw: z.input<typeof ZReaderIdInput>): Promise<CardReaderDto> {
  const input = ZReaderIdInput.parse(raw);
  requirePermission(ctx.actor, 'credential.manage');
  const reader = await findReader(ctx, input.id);
  if (reader.boundAccountId !== ctx.actor.accountId) requirePermission(ctx.actor, 'hotel.manage');
  if (reader.boundAccountId === null) return toDto(reader);
  return transaction(ctx.deps, async (tx) => {
    const updated = await tx.cardReader.update({ where: { id: reader.id }, data: { boundAccountId: null }, select: SELECT });
    await recordAudit(tx, ctx, {
      action: 'reader.unbind',
      entityType: 'CardReader',
      entityId: reader.id,
      before: { boundAccountId: reader.boundAccountId },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'device.changed' });
    return toDto(updated);
  });
}

export async function deleteReader(ctx: AuthedContext, raw: z.input<typeof ZReaderIdInput>): Promise<{ deleted: true }> {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZReaderIdInput.parse(raw);
  const reader = await findReader(ctx, input.id);
  await transaction(ctx.deps, async (tx) => {
    await tx.cardReader.delete({ where: { id: reader.id } });
    await recordAudit(tx, ctx, {
      action: 'reader.delete',
      entityType: 'CardReader',
      entityId: reader.id,
      names: { name: reader.name || reader.deviceId },
      before: { deviceId: reader.deviceId, serial: reader.serial, name: reader.name, boundAccountId: reader.boundAccountId },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'device.changed' });
  });
  return { deleted: true };
}
