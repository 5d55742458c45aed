import type { LegacyAction } from './action';
import { apiKeyActions } from './api-keys';
import { cardDispenserActions } from './card-dispenser';
import { getBackActions } from './get-back';
import { lockAdminActions } from './lock-admin';
import { lockCardActions } from './lock-cards';
import { lockActions } from './lock';
import { orderActions } from './order';
import { orderReportActions } from './order-reports';
import { ossActions } from './oss';
import { passengerCardActions } from './passenger-cards';
import { passengerActions } from './passenger';
import { priceTemplateActions } from './price-template';
import { roomActions } from './room';
import { rootActions } from './root';
import { settingActions } from './setting';
import { userActions } from './user';

/**
 * Every `/manage/*` action, one file per URL folder (`room/` has a folder of its own; `order/`'s
 * shifts and day reports have a file beside its ledger actions). The table
 * of actions in docs/legacy-protocol.md is generated from this list and checked by a test.
 */
export const LEGACY_ACTIONS: LegacyAction[] = [
  ...rootActions,
  ...settingActions,
  ...getBackActions,
  ...roomActions,
  ...priceTemplateActions,
  ...userActions,
  ...apiKeyActions,
  ...passengerActions,
  ...passengerCardActions,
  ...lockActions,
  ...lockAdminActions,
  ...lockCardActions,
  ...ossActions,
  ...cardDispenserActions,
  ...orderActions,
  ...orderReportActions,
];
