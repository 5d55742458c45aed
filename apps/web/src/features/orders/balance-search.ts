import { LOCAL_DATE_REGEX } from '../../lib/shared-constants';
import type * as shared from '@console/shared';
import { int, oneOf, optional, searchSchema, string, withDefault } from '../../lib/url-search';

// The page reads the URL with these (its route does not: the route's code is in every page's first
// download). The lists are packages/shared's, checked by the compiler (`satisfies`).

export const BALANCE_TABS = ['orders', 'customer', 'cash'] as const;
export const ORDER_KINDS = [
  'room_charge',
  'charge',
  'deposit',
  'payment',
  'refund',
  'recharge',
  'correction',
] as const satisfies typeof shared.ORDER_ENTRY_KINDS;
export const ORDER_METHODS = ['cash', 'bank_card', 'wechat', 'alipay', 'transfer', 'other', 'balance'] as const satisfies typeof shared.PAYMENT_METHODS;

/** The Balance page's tab, and the orders' filters and page: a reload or a shared link shows the same orders. */
export const balanceSearchSchema = searchSchema({
  tab: withDefault(oneOf(BALANCE_TABS), 'orders'),
  page: withDefault(int({ min: 1 }), 1),
  stay: optional(int({ min: 1 })),
  kind: optional(oneOf(ORDER_KINDS)),
  method: optional(oneOf(ORDER_METHODS)),
  from: optional(string({ pattern: LOCAL_DATE_REGEX })),
  to: optional(string({ pattern: LOCAL_DATE_REGEX })),
});

/** Values equal to these are left out of the URL. */
export const balanceSearchDefaults = { tab: 'orders', page: 1 } as const;
