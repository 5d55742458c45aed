import { describe, expect, it } from 'vitest';
import { LockProviderError } from '../provider';
import { accessCodeIssue, actionAttemptFailure, httpFailureOf, retryAtOf, seamFailure, SeamHttpFailure } from './errors';

/**
 * The parts of Seam's error mapping that neither Seam's fake nor OUR layer answers
 * (seam.integration.test.ts covers the rest against the fake): a 403, a 5xx with a JSON error, a
 * type we do not know, a Retry-After as a date, what axios hands the interceptor.
 */
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const failure = (status: number | null, type: string | null, retryAfter: string | null = null) =>
  new SeamHttpFailure(status, type, 'message', retryAfter, 'request7', status === null ? 'ECONNREFUSED' : '');
const mapped = (error: unknown, subject: 'lock' | 'credential' = 'lock') => {
  const e = seamFailure(error, subject, NOW);
  return { code: e.code, vendorCode: e.vendorCode, kind: e.kind };
};

describe("Seam's failures as our codes", () => {
  it('reads the HTTP status first, then the JSON error type', () => {
    expect(mapped(failure(null, null))).toEqual({ code: 'network', vendorCode: 'ECONNREFUSED', kind: 'retry' });
    expect(mapped(failure(401, 'unauthorized'))).toEqual({ code: 'auth_failed', vendorCode: 'unauthorized', kind: 'account' });
    expect(mapped(failure(403, null))).toEqual({ code: 'permission_denied', vendorCode: 403, kind: 'permanent' });
    expect(mapped(failure(500, 'device_not_found'))).toEqual({ code: 'cloud_error', vendorCode: 'device_not_found', kind: 'retry' });
    expect(mapped(failure(502, null))).toEqual({ code: 'cloud_error', vendorCode: 502, kind: 'retry' });
    expect(mapped(failure(400, null))).toEqual({ code: 'cloud_error', vendorCode: 400, kind: 'retry' });
    expect(mapped(failure(404, 'not_found'), 'lock')).toMatchObject({ code: 'lock_not_found' });
    expect(mapped(failure(404, 'not_found'), 'credential')).toMatchObject({ code: 'credential_not_found' });
    expect(mapped(failure(400, 'account_disconnected'))).toEqual({ code: 'account_disconnected', vendorCode: 'account_disconnected', kind: 'account' });
    expect(mapped(failure(400, 'device_offline'))).toMatchObject({ code: 'lock_offline', kind: 'retry' });
    expect(mapped(failure(400, 'a_type_seam_adds_later'))).toEqual({ code: 'provider_error', vendorCode: 'a_type_seam_adds_later', kind: 'retry' });
    expect(seamFailure(failure(409, 'duplicate_access_code'), 'lock', NOW).vendorMessage).toBe('message (seam-request-id request7)');
    expect(mapped(new TypeError('boom'))).toMatchObject({ code: 'provider_error' });
    const ours = new LockProviderError('not_supported');
    expect(seamFailure(ours, 'lock', NOW)).toBe(ours);
  });

  it('waits out a 429 until its Retry-After (seconds or a date), a minute when none is sent', () => {
    expect(seamFailure(failure(429, null, '17'), 'lock', NOW).retryAt).toEqual(new Date(NOW + 17_000));
    expect(seamFailure(failure(429, 'rate_limit_exceeded'), 'lock', NOW)).toMatchObject({
      code: 'rate_limited',
      vendorCode: 'rate_limit_exceeded',
      retryAt: new Date(NOW + 60_000),
    });
    expect(retryAtOf(new Date(NOW + 90_000).toUTCString(), NOW)).toEqual(new Date(NOW + 90_000));
    expect(retryAtOf('soon', NOW)).toEqual(new Date(NOW + 60_000));
    expect(retryAtOf(new Date(NOW - 5_000).toUTCString(), NOW)).toEqual(new Date(NOW));
  });

  it("keeps axios' status, error type, Retry-After and request id; no answer is a network failure", () => {
    const headers = { 'retry-after': '3', 'seam-request-id': 'request9' };
    const answered = httpFailureOf({ isAxiosError: true, message: 'x', response: { status: 429, headers, data: { error: { type: 't', message: 'm' } } } });
    expect(answered).toMatchObject({ status: 429, type: 't', detail: 'm', retryAfter: '3', requestId: 'request9' });
    const withGet = httpFailureOf({
      isAxiosError: true,
      response: { status: 503, headers: { get: (n: string) => (n === 'retry-after' ? '9' : undefined) }, data: '' },
    });
    expect(withGet).toMatchObject({ status: 503, type: null, retryAfter: '9' });
    expect(httpFailureOf({ isAxiosError: true, code: 'ETIMEDOUT', message: 'timeout' })).toMatchObject({ status: null, networkCode: 'ETIMEDOUT' });
    const other = new Error('not axios');
    expect(httpFailureOf(other)).toBe(other);
  });

  it("maps an action attempt's error and an access code's errors and warnings", () => {
    const attempt = (type: string) =>
      actionAttemptFailure({ actionAttemptId: 'a', actionType: 'UNLOCK_DOOR', status: 'error', error: { code: type, message: 'm' }, result: null });
    expect(attempt('action_attempt_expired')).toMatchObject({ code: 'lock_busy', vendorCode: 'action_attempt_expired' });
    expect(attempt('account_disconnected')).toMatchObject({ code: 'account_disconnected' });
    // A card system's encoder: the desk's card.
    expect(attempt('no_credential_on_encoder')).toMatchObject({ code: 'no_card_on_encoder', kind: 'permanent' });
    expect(attempt('incompatible_card_format')).toMatchObject({ code: 'card_not_encodable' });
    expect(attempt('encoding_interrupted')).toMatchObject({ code: 'encoding_interrupted' });
    expect(attempt('bridge_disconnected')).toMatchObject({ code: 'card_system_offline', retryable: true });
    expect(attempt('something_new')).toMatchObject({ code: 'provider_error', vendorCode: 'something_new' });
    expect(accessCodeIssue({ code: 'no_space_for_access_code_on_device', message: 'm' }, 'error')).toEqual({
      code: 'storage_full',
      vendorCode: 'no_space_for_access_code_on_device',
      vendorMessage: 'm',
      transient: false,
    });
    expect(accessCodeIssue({ code: 'august_lock_invalid_code_length', message: 'm' }, 'error')).toMatchObject({ code: 'code_length', transient: false });
    expect(accessCodeIssue({ code: 'an_error_seam_adds_later', message: 'm' }, 'error')).toMatchObject({ code: 'failed_on_lock', transient: false });
    expect(accessCodeIssue({ code: 'igloo_algopin_must_be_used_within_24_hours', message: 'm' }, 'warning')).toMatchObject({
      code: 'provider_error',
      transient: true,
    });
    // A warning never fails a code, even one whose error form would.
    expect(accessCodeIssue({ code: 'schlage_detected_duplicate', message: 'm' }, 'warning')).toMatchObject({ code: 'duplicate_code', transient: true });
  });
});
