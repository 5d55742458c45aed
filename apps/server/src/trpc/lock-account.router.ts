import { ZLockAccountBudgetInput, ZLockAccountConnectInput, ZLockAccountIdInput, ZLockAccountReconnectInput, ZLockSettingsInput } from '@console/shared';
import {
  connectLockAccount,
  disconnectLockAccount,
  listLockAccounts,
  reconnectLockAccount,
  removeLockAccount,
  setLockAccountBudget,
  setLockSettings,
} from '../modules/locks/accounts/account.service';
import { importLocks } from '../modules/locks/accounts/import.service';
import { authedProcedure, router } from './init';

/** The hotel's lock accounts (Settings > Lock accounts): connect, get locks, budgets. */
export const lockAccountRouter = router({
  list: authedProcedure.query(({ ctx }) => listLockAccounts(ctx)),
  connect: authedProcedure.input(ZLockAccountConnectInput).mutation(({ ctx, input }) => connectLockAccount(ctx, input)),
  reconnect: authedProcedure.input(ZLockAccountReconnectInput).mutation(({ ctx, input }) => reconnectLockAccount(ctx, input)),
  disconnect: authedProcedure.input(ZLockAccountIdInput).mutation(({ ctx, input }) => disconnectLockAccount(ctx, input)),
  remove: authedProcedure.input(ZLockAccountIdInput).mutation(({ ctx, input }) => removeLockAccount(ctx, input)),
  setBudget: authedProcedure.input(ZLockAccountBudgetInput).mutation(({ ctx, input }) => setLockAccountBudget(ctx, input)),
  /** "Get locks": the account's locks and gateways into the hotel's lock list. */
  importLocks: authedProcedure.input(ZLockAccountIdInput).mutation(({ ctx, input }) => importLocks(ctx, input)),
  setSettings: authedProcedure.input(ZLockSettingsInput).mutation(({ ctx, input }) => setLockSettings(ctx, input)),
});
