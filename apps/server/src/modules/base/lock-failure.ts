import { AppError } from '../../errors';
import type { LockProviderError } from '../../infra/locks/provider';

/**
 * A lock platform's refusal as the desk's error: `messageKey` says what failed, its `reason` the
 * platform's code translated (`credentials.errors.<code>`), kept in `details` for clients.
 */
export function lockFailed(error: LockProviderError, messageKey: string): AppError {
  return new AppError('LOCK_FAILED', { messageKey, params: { reason: { t: `credentials.errors.${error.code}` } }, details: { reason: error.code } });
}
