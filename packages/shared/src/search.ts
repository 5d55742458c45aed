import { z } from 'zod';
import { LIMITS } from './limits';
import { oneLine, zInt } from './primitives';

/** How many results each group of the search box (`search.query`) holds at most, and by default. */
export const SEARCH_GROUP_LIMIT = { default: 5, max: 10 } as const;

/** The groups of the search box's results, in the order the box shows them. */
export const SEARCH_GROUPS = ['rooms', 'guests', 'reservations', 'cards', 'locks', 'staff'] as const;
export type TSearchGroup = (typeof SEARCH_GROUPS)[number];

/**
 * The search box (issue 28 §3): one line of text, matched literally (no wildcard of any kind),
 * case-insensitively; at most `limit` results in each group.
 */
export const ZSearchQueryInput = z.object({
  text: oneLine(
    z
      .string({ error: 'validation.searchInvalid' })
      .trim()
      .min(1, { error: 'validation.searchInvalid' })
      .max(LIMITS.searchMaxLength, { error: 'validation.searchTooLong' }),
  ),
  limit: zInt({ min: 1, max: SEARCH_GROUP_LIMIT.max }, 'validation.invalid').default(SEARCH_GROUP_LIMIT.default),
});
export type TSearchQueryInput = z.input<typeof ZSearchQueryInput>;
