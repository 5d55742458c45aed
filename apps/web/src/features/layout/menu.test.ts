import { Lock, Users } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import type { UserInfo } from '@/lib/user-info';
import { MENU, activeMenuKey, visibleMenu, type MenuItem } from './menu';

const user = (overrides: Partial<UserInfo> = {}): UserInfo => ({
  id: 1,
  nickname: 'n',
  mobile: '13800000000',
  email: null,
  avatar: null,
  apiKeyAuth: false,
  role: 'staff',
  permissions: ['customer.read'],
  hotel: { id: 1, name: 'h', timeZone: 'Asia/Shanghai', currency: 'CNY' },
  ...overrides,
});

const items: MenuItem[] = [
  {
    key: 'customers',
    titleKey: 'menu.customers',
    icon: Users,
    children: [{ key: 'list', titleKey: 'x', icon: Users, to: '/customer/customer', permission: 'customer.read' }],
  },
  {
    key: 'keys',
    titleKey: 'menu.keys',
    icon: Lock,
    children: [
      { key: 'encryption', titleKey: 'x', icon: Lock, to: '/cardEncryption/cardEncryption', requiresFlag: 'apiKeyAuth' },
      { key: 'third-party', titleKey: 'x', icon: Lock, to: '/thirdPartyAuthorization/thirdPartyAuthorization', requiresFlag: 'apiKeyAuth' },
    ],
  },
  { key: 'staff', titleKey: 'x', icon: Users, to: '/staff', permission: 'staff.manage' },
];

describe('menu', () => {
  it('hides encryption management and third-party authorisation unless the user info has apiKeyAuth (spec §6)', () => {
    expect(visibleMenu(items, user()).map((i) => i.key)).toEqual(['customers']);
    const withKey = visibleMenu(items, user({ apiKeyAuth: true }));
    expect(withKey.map((i) => i.key)).toEqual(['customers', 'keys']);
    expect(withKey[1]!.children!.map((c) => c.key)).toEqual(['encryption', 'third-party']);
  });

  it('shows entries only to members with their permission, and drops emptied sections', () => {
    expect(visibleMenu(items, user({ permissions: [] }))).toEqual([]);
    expect(visibleMenu(items, user({ permissions: ['customer.read', 'staff.manage'] })).map((i) => i.key)).toEqual(['customers', 'staff']);
  });

  it('lists the screens that are built, each to the members allowed to use it', () => {
    const pages = (u: UserInfo) => visibleMenu(MENU, u).flatMap((i) => i.children?.map((c) => c.to) ?? [i.to]);
    expect(pages(user({ permissions: ['customer.read', 'room.read'] }))).toEqual([
      '/today',
      '/room',
      '/timeline',
      '/room/tenant',
      '/room/guests',
      '/room/breakfast',
      '/lock-messages',
      '/unlock-records',
      '/faces',
      '/bindCardReaderToUser/cardReaderAndUserList',
      '/cardDispenser',
      '/customer/customer',
      '/center/personalCenter',
    ]);
    expect(pages(user({ permissions: ['customer.read', 'room.read', 'room.manage', 'price.manage'] }))).toEqual([
      '/today',
      '/room',
      '/timeline',
      '/room/tenant',
      '/room/guests',
      '/room/breakfast',
      '/lock-messages',
      '/unlock-records',
      '/faces',
      '/room/category',
      '/room/priceTemplate',
      '/room/calendarFeeds',
      '/bindCardReaderToUser/cardReaderAndUserList',
      '/cardDispenser',
      '/customer/customer',
      '/center/personalCenter',
    ]);
    // The audit log: owners and administrators (audit.read) only.
    expect(pages(user({ permissions: ['customer.read', 'room.read', 'audit.read'] })).slice(-3)).toEqual([
      '/customer/customer',
      '/auditLog',
      '/center/personalCenter',
    ]);
    // Hotel information: owners and administrators (hotel.manage); the personal centre: everyone.
    expect(pages(user({ permissions: ['room.read', 'hotel.manage'] })).slice(-4)).toEqual([
      '/hotelInfo',
      '/accessRules',
      '/webhooks',
      '/center/personalCenter',
    ]);
    // Staff and permissions: owners and administrators (staff.manage).
    expect(pages(user({ permissions: ['room.read', 'hotel.manage', 'staff.manage'] })).slice(-5)).toEqual([
      '/hotelInfo',
      '/accessRules',
      '/webhooks',
      '/staff',
      '/center/personalCenter',
    ]);
    expect(pages(user({ permissions: ['room.read', 'stay.manage', 'credential.manage'] }))).not.toContain('/staff');
    // Cashier shifts: the front desk (stay.manage) opens and closes its own, after the Balance page of managers (order.manage).
    expect(pages(user({ permissions: ['room.read', 'stay.manage'] })).slice(-3)).toEqual(['/shifts', '/guestMessages', '/center/personalCenter']);
    // The reports (issue 26 §2) and the trial balance (issue 36): managers (order.manage), after the shifts.
    expect(pages(user({ permissions: ['room.read', 'stay.manage', 'order.manage'] })).slice(-6)).toEqual([
      '/order/balance',
      '/shifts',
      '/reports',
      '/order/trialBalance',
      '/guestMessages',
      '/center/personalCenter',
    ]);
    expect(pages(user({ permissions: ['room.read', 'stay.manage'] }))).not.toContain('/reports');
    expect(pages(user({ permissions: ['room.read', 'stay.manage'] }))).not.toContain('/order/trialBalance');
    expect(pages(user({ permissions: ['room.read'] }))).not.toContain('/shifts');
    // Lock accounts: owners and administrators (lock.accounts), after the hotel's information and access rules.
    expect(pages(user({ permissions: ['room.read', 'hotel.manage', 'lock.accounts', 'staff.manage'] })).slice(-6)).toEqual([
      '/hotelInfo',
      '/accessRules',
      '/webhooks',
      '/lockAccounts',
      '/staff',
      '/center/personalCenter',
    ]);
    expect(pages(user({ permissions: ['room.read', 'room.manage', 'stay.manage', 'credential.manage'] }))).not.toContain('/lockAccounts');
  });
});

describe('third-party authorisation in the menu', () => {
  it('is shown to members who manage API keys and whose membership has apiKeyAuth, only', () => {
    const has = (u: UserInfo) => visibleMenu(MENU, u).some((i) => i.children?.some((c) => c.to === '/thirdPartyAuthorization/thirdPartyAuthorization'));
    expect(has(user({ apiKeyAuth: true, permissions: ['apikey.manage'] }))).toBe(true);
    expect(has(user({ apiKeyAuth: false, permissions: ['apikey.manage'] }))).toBe(false);
    expect(has(user({ apiKeyAuth: true, permissions: ['room.read', 'audit.read'] }))).toBe(false);
  });
});

describe('activeMenuKey', () => {
  const all = visibleMenu(MENU, user({ permissions: ['customer.read', 'room.read', 'room.manage', 'price.manage'] }));
  it.each([
    ['/today', 'today'],
    ['/room', 'room-board'],
    ['/room/', 'room-board'],
    ['/room/12', 'room-board'],
    ['/timeline', 'timeline'],
    ['/room/tenant', 'stays'],
    ['/room/guests', 'guests'],
    ['/room/thetouristsDetails', 'stays'],
    ['/room/breakfast', 'breakfast'],
    ['/room/category', 'room-groups'],
    ['/room/priceTemplate', 'price-templates'],
    ['/customer/customer', 'customer-list'],
    ['/bindCardReaderToUser/cardReaderAndUserList', 'card-readers'],
    ['/bindCardReaderToUser/bindCardReaderToUser', 'card-readers'],
    ['/center/personalCenter/cardSenderFingerTest', 'card-readers'],
    ['/cardDispenser', 'card-dispensers'],
  ])('lights one entry on %s: %s', (pathname, key) => {
    expect(activeMenuKey(all, pathname)).toBe(key);
  });

  it('lights nothing on a page outside the menu, and never a prefix that is not a parent', () => {
    expect(activeMenuKey(all, '/user/changePsw')).toBeUndefined();
    expect(activeMenuKey(all, '/roomy')).toBeUndefined();
  });
});
