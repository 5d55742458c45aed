/**
 * Keyset paging ("the rows after this one") for reading a whole list in its order, newest first,
 * without OFFSET: an export of everything (modules/export) reads 200,000 stays in chunks, and each
 * chunk starts where the last one ended by the index, where an OFFSET page would first skip every
 * row before it (the whole read grew with the square of the rows: bench/README.md §12).
 */

/** Where the last chunk ended: its last row's sort time (ISO) and id. JSON, as a job may hold it. */
export interface KeysetCursor {
  at: string;
  id: number;
}

export const cursorOf = (at: Date | string, id: number): KeysetCursor => ({ at: typeof at === 'string' ? at : at.toISOString(), id });

/**
 * The Prisma condition "after `cursor`" for a list ordered by `field` DESC, `id` DESC:
 * `field <= at AND (field < at OR id < lastId)`. The first part bounds the index range (a plain
 * OR would not), the second drops the rows of the same time already read.
 */
export function descAfter<Where extends object>(field: string & keyof Where, cursor: KeysetCursor | null): Where {
  if (!cursor) return {} as Where;
  const at = new Date(cursor.at);
  return { AND: [{ [field]: { lte: at } }, { OR: [{ [field]: { lt: at } }, { id: { lt: cursor.id } }] }] } as Where;
}
