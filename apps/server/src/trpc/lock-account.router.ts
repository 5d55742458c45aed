import {
  ZLockAccountListOutput,
  ZLockAccountConnectOutput,
  ZLockAccountConnectSeamOutput,
  ZLockAccountSeamWebhookOutput,
  ZLockAccountSeamLinkOutput,
  ZLockAccountSeamLinkStateOutput,
  ZLockAccountReconnectOutput,
  ZLockAccountDisconnectOutput,
  ZLockAccountRemoveOutput,
  ZLockAccountSetBudgetOutput,
  ZLockAccountImportLocksOutput,
  ZLockAccountSetSettingsOutput,
} from '@console/shared/dto';
import {
  ZLockAccountBudgetInput,
  ZLockAccountConnectInput,
  ZLockAccountConnectSeamInput,
  ZLockAccountSeamWebhookInput,
  ZLockAccountSeamLinkStateInput,
  ZLockAccountIdInput,
  ZLockAccountReconnectInput,
  ZLockSettingsInput,
} from '@console/shared';
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
import { connectSeamLockAccount } from '../modules/locks/accounts/seam-account.service';
import { setSeamWebhookSecret } from '../modules/locks/accounts/seam-webhook.service';
import { seamLinkState, startSeamLink } from '../modules/locks/accounts/seam-link.service';
import { authedProcedure, router } from './init';

/** The hotel's lock accounts (Settings > Lock accounts): connect, get locks, budgets. */
export const lockAccountRouter = router({
  list: authedProcedure.output(ZLockAccountListOutput).query(({ ctx }) => listLockAccounts(ctx)),
  connect: authedProcedure
    .input(ZLockAccountConnectInput)

    .output(ZLockAccountConnectOutput)
    .mutation(({ ctx, input }) => connectLockAccount(ctx, input)),
  /** A Seam workspace by its API key (checked against Seam, kept sealed): a new account, or one not connected any more connected again. */
  connectSeam: authedProcedure
    .input(ZLockAccountConnectSeamInput)

    .output(ZLockAccountConnectSeamOutput)
    .mutation(({ ctx, input }) => connectSeamLockAccount(ctx, input)),
  /** A page of Seam's where the owner links a lock brand's account into the workspace (a connect webview). */
  seamLink: authedProcedure
    .input(ZLockAccountIdInput)

    .output(ZLockAccountSeamLinkOutput)
    .mutation(({ ctx, input }) => startSeamLink(ctx, input)),
  /** Whether Seam's page was completed (its locks can be got now), given up, or not yet. */
  seamLinkState: authedProcedure
    .input(ZLockAccountSeamLinkStateInput)

    .output(ZLockAccountSeamLinkStateOutput)
    .query(({ ctx, input }) => seamLinkState(ctx, input)),
  /** A Seam workspace's webhook signing secret (`whsec_...`, sealed), or none: Seam's events then reach the console at once. */
  setSeamWebhook: authedProcedure
    .input(ZLockAccountSeamWebhookInput)

    .output(ZLockAccountSeamWebhookOutput)
    .mutation(({ ctx, input }) => setSeamWebhookSecret(ctx, input)),
  reconnect: authedProcedure
    .input(ZLockAccountReconnectInput)

    .output(ZLockAccountReconnectOutput)
    .mutation(({ ctx, input }) => reconnectLockAccount(ctx, input)),
  disconnect: authedProcedure
    .input(ZLockAccountIdInput)

    .output(ZLockAccountDisconnectOutput)
    .mutation(({ ctx, input }) => disconnectLockAccount(ctx, input)),
  remove: authedProcedure
    .input(ZLockAccountIdInput)

    .output(ZLockAccountRemoveOutput)
    .mutation(({ ctx, input }) => removeLockAccount(ctx, input)),
  setBudget: authedProcedure
    .input(ZLockAccountBudgetInput)

    .output(ZLockAccountSetBudgetOutput)
    .mutation(({ ctx, input }) => setLockAccountBudget(ctx, input)),
  /** "Get locks": the account's locks and gateways into the hotel's lock list. */
  importLocks: authedProcedure
    .input(ZLockAccountIdInput)

    .output(ZLockAccountImportLocksOutput)
    .mutation(({ ctx, input }) => importLocks(ctx, input)),
  setSettings: authedProcedure
    .input(ZLockSettingsInput)

    .output(ZLockAccountSetSettingsOutput)
    .mutation(({ ctx, input }) => setLockSettings(ctx, input)),
});
