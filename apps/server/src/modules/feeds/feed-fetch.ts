import { FEED_LIMITS } from '@console/shared';
import { createGuardedFetch, OutboundError, type GuardedFetch } from '../../infra/guarded-fetch';

/**
 * Why reading a feed failed, as the console shows it (`feeds.errors.*`; `http_<status>` for an
 * HTTP answer): `address_refused`, `timeout`, `too_large`, `network` (a refused connection, a
 * name that does not resolve, too many redirects).
 */
export class FeedFetchError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'FeedFetchError';
  }
}

/** The guarded fetch of feeds: the install's choice (OUTBOUND_PRIVATE_ADDRESSES) picks one. */
const readers = { guarded: createGuardedFetch(), open: createGuardedFetch({ privateAddresses: true }) };

const MAX_REDIRECTS = 5;

/**
 * Reads a feed's text through the guarded fetch (infra/guarded-fetch.ts): a GET with a time limit
 * and a size limit, following up to five redirects. Any HTTP answer but 2xx, a timeout, a refused
 * connection, an answer too large or (unless `privateAddresses`) an address the guard refuses (the
 * machine's own, a special-purpose range), at any hop, is a FeedFetchError with its code; nothing
 * is changed by a read that fails. `reader` replaces the guarded fetch (a test's resolver).
 */
export async function fetchFeedText(url: string, options: { timeoutMs?: number; privateAddresses?: boolean; reader?: GuardedFetch } = {}): Promise<string> {
  const reader = options.reader ?? (options.privateAddresses ? readers.open : readers.guarded);
  try {
    const response = await reader(url, {
      headers: { accept: 'text/calendar, text/plain;q=0.8, */*;q=0.5', 'user-agent': 'smart-lock-console calendar reader' },
      timeoutMs: options.timeoutMs ?? FEED_LIMITS.timeoutMs,
      maxBytes: FEED_LIMITS.bodyMaxBytes,
      maxRedirects: MAX_REDIRECTS,
    });
    if (response.status < 200 || response.status >= 300) throw new FeedFetchError(`http_${response.status}`);
    return new TextDecoder('utf-8').decode(response.body);
  } catch (error) {
    if (error instanceof FeedFetchError) throw error;
    if (error instanceof OutboundError) throw new FeedFetchError(error.code === 'redirects' ? 'network' : error.code);
    throw new FeedFetchError('network');
  }
}
