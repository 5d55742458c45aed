import type { RouterOutputs } from '@/lib/trpc-types';

/** What the lock accounts page shows, from lockAccount.list and lock.list. */
export type LockAccountsData = RouterOutputs['lockAccount']['list'];
export type LockAccount = LockAccountsData['items'][number];
export type LockAccountState = LockAccount['state'];
export type HotelLock = RouterOutputs['lock']['list']['items'][number];
export type ImportResult = RouterOutputs['lockAccount']['importLocks'];

/** The actions an account offers in its state (the server refuses the others). */
export interface AccountActions {
  /** "Get locks": only a connected account can be asked. */
  importLocks: boolean;
  /** Its password again: whenever it is not connected. */
  reconnect: boolean;
  disconnect: boolean;
  /** Only once disconnected (the server says "disconnect first" otherwise). */
  remove: boolean;
  budget: boolean;
}

export function accountActions(state: LockAccountState): AccountActions {
  return {
    importLocks: state === 'connected',
    reconnect: state !== 'connected',
    disconnect: state !== 'disconnected',
    remove: state === 'disconnected',
    budget: true,
  };
}

/**
 * What an account's card says of its state, by its kind: a Seam workspace whose key Seam refused
 * needs a new API key (connected again through the Seam dialog), never a password.
 */
export function stateTexts(account: { kind: LockAccount['kind']; state: LockAccountState }): {
  badge: string;
  help: string;
  reconnect: string;
  disconnectText: string;
} {
  if (account.kind === 'seam') {
    // A Seam workspace has an API key, not a lock cloud's tokens and password.
    const seamHelp = { needs_password: 'lockAccounts.errors.reconnectWithKey', disconnected: 'lockAccounts.seam.disconnected' } as const;
    return {
      badge: account.state === 'needs_password' ? 'lockAccounts.seam.needsKey' : `lockAccounts.states.${account.state}`,
      help: account.state === 'needs_password' || account.state === 'disconnected' ? seamHelp[account.state] : `lockAccounts.stateHelp.${account.state}`,
      reconnect: 'lockAccounts.seam.reconnect',
      disconnectText: 'lockAccounts.seam.disconnectText',
    };
  }
  return {
    badge: `lockAccounts.states.${account.state}`,
    help: `lockAccounts.stateHelp.${account.state}`,
    reconnect: 'lockAccounts.reconnect',
    disconnectText: 'lockAccounts.disconnectText',
  };
}

/** The badge of a state: green when connected, grey once disconnected, amber while it needs the administrator. */
export function stateVariant(state: LockAccountState): 'success' | 'outline' | 'warning' | 'destructive' {
  if (state === 'connected') return 'success';
  if (state === 'disconnected') return 'outline';
  if (state === 'suspended') return 'destructive';
  return 'warning';
}

/** The refusal each state already says in words (codes of packages/shared LOCK_ERROR_CODES). */
const OWN_REASON: Partial<Record<LockAccountState, string>> = {
  needs_password: 'auth_failed',
  wrong_region: 'wrong_region',
  suspended: 'app_refused',
  disconnected: 'account_disconnected',
};

/** Why an account is where it is, when its state does not say it already (a refused password is "needs the password again"). */
export function stateReason(state: LockAccountState, lastError: string | null): string | null {
  return lastError && lastError !== OWN_REASON[state] ? lastError : null;
}

/**
 * How much of its monthly budget an account used: the bar's width (0 to 100, whole percent,
 * never past the end) and the percent to read (which may pass 100).
 */
export function budgetUse(month: number, budget: number): { bar: number; percent: number } {
  if (budget <= 0) return { bar: 100, percent: 100 };
  const percent = Math.floor((month * 100) / budget);
  return { bar: Math.min(100, Math.max(0, percent)), percent: Math.max(0, percent) };
}

/** A lock as its owner knows it: its name in the lock app (alias), else its Bluetooth name (as the server names it). */
export function lockName(lock: { name: string; alias: string }): string {
  return lock.alias || lock.name;
}

/** An account as the page names it: its label when it has one, with the account itself. */
export function accountTitle(account: { username: string; label: string }): string {
  return account.label ? `${account.label} (${account.username})` : account.username;
}

/** The parts of a "get locks" summary worth saying: the counts that are not zero, in this order. */
export function importSummaryParts(result: ImportResult): { key: 'added' | 'updated' | 'gone' | 'elsewhere'; number: number }[] {
  const parts = [
    { key: 'added' as const, number: result.added },
    { key: 'updated' as const, number: result.updated },
    { key: 'gone' as const, number: result.gone },
    { key: 'elsewhere' as const, number: result.elsewhere },
  ];
  return parts.filter((p) => p.number > 0);
}
