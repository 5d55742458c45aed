/**
 * The one way a list searches text: literally, case-insensitively, as a substring. `%`, `_` and
 * `\` typed by a user match themselves (LIKE's escape character in PostgreSQL is the backslash).
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A Prisma string filter for "contains `search`", case-insensitive (for names, e-mails, notes). */
export function containsText(search: string) {
  return { contains: escapeLike(search), mode: 'insensitive' as const };
}

/** A Prisma string filter for "contains `search`" as typed (for digits: phone numbers, ID numbers). */
export function containsExactly(search: string) {
  return { contains: escapeLike(search) };
}

/** The trimmed search text, or undefined when there is nothing to search for. */
export function searchText(search: string | undefined): string | undefined {
  const text = search?.trim();
  return text ? text : undefined;
}
