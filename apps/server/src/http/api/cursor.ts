import { z } from 'zod';
import { zPageSize } from '@console/shared';
import type { KeysetCursor } from '../../db/keyset';
import { AppError } from '../../errors';

/**
 * Cursor pagination of the JSON API: a list answers `{ items, nextCursor }`; the client sends
 * `nextCursor` back as `cursor` for the next page (null: no more). The cursor is opaque: where a
 * service reads by keyset (stays, unlock records: db/keyset.ts) it holds the last row's sort time
 * and id, so rows written meanwhile never shift a page; elsewhere (rooms, a short list) the next page.
 */
export const ZCursorQuery = z.object({
  cursor: z
    .string({ error: 'validation.invalid' })
    .max(200, { error: 'validation.invalid' })
    .optional()
    .meta({ description: 'The `nextCursor` of the previous page.' }),
  limit: zPageSize(50).meta({ description: 'Items of a page (1-100, default 50).' }),
});

export const cursorPage = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().meta({ description: 'Send it back as `cursor` for the next page; null: the last page.' }),
  });

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function decode(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

const badCursor = () => new AppError('VALIDATION', { messageKey: 'validation.invalid', fields: { cursor: 'validation.invalid' } });

const ZKeyset = z.object({ at: z.iso.datetime(), id: z.number().int().min(1) }).strict();
const ZPageCursor = z.object({ page: z.number().int().min(1).max(100_000), limit: z.number().int().min(1).max(100) }).strict();

export function keysetFrom(cursor: string | undefined): KeysetCursor | null {
  if (cursor === undefined) return null;
  const parsed = ZKeyset.safeParse(decode(cursor));
  if (!parsed.success) throw badCursor();
  return parsed.data;
}

/** A keyset page: `limit + 1` rows read, the extra one only says whether there is more. */
export function keysetPage<T>(rows: T[], limit: number, cursorOf: (row: T) => KeysetCursor) {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encode(cursorOf(items[items.length - 1]!)) : null };
}

/** The page a numbered cursor names, in the size of the first page (a later `limit` does not shift it). */
export function pageFrom(cursor: string | undefined, limit: number): { page: number; pageSize: number } {
  if (cursor === undefined) return { page: 1, pageSize: limit };
  const parsed = ZPageCursor.safeParse(decode(cursor));
  if (!parsed.success) throw badCursor();
  return { page: parsed.data.page, pageSize: parsed.data.limit };
}

export function numberedPage<T>(items: T[], page: number, pageSize: number, total: number) {
  return { items, nextCursor: page * pageSize < total ? encode({ page: page + 1, limit: pageSize }) : null };
}
