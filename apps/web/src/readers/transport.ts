import { ReaderError, noResponse, type ReaderStep } from './errors';

/**
 * One HTTP call to a local reader service, answered as parsed JSON. No answer (nothing listens,
 * the connection is refused, CORS or Private Network Access refused, the timeout passed) is
 * `noResponse`; an answer that is not the service's JSON is `startFailed` (something else is on
 * that port, or the service is broken).
 */
export async function callService(
  fetchImpl: typeof fetch,
  url: string,
  init: { method: 'GET' | 'POST'; body?: URLSearchParams },
  step: ReaderStep,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: init.method,
      body: init.body,
      headers: init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : undefined,
      signal: AbortSignal.timeout(timeoutMs),
      cache: 'no-store',
    });
  } catch (error) {
    throw noResponse(step, error);
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch (error) {
    // The body did not arrive in time, or is not JSON.
    if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) throw noResponse(step, error);
    throw new ReaderError('startFailed', { step, detail: `HTTP ${response.status}, not JSON`, cause: error });
  }
  if (!response.ok || !json || typeof json !== 'object' || Array.isArray(json)) {
    throw new ReaderError('startFailed', { step, detail: `HTTP ${response.status}: unexpected answer` });
  }
  return json as Record<string, unknown>;
}

export const hexToBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
export const bytesToHex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
