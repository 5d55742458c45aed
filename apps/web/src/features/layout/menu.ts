import {
  Banknote,
  BedDouble,
  BellRing,
  BrushCleaning,
  ClipboardCheck,
  ChartColumn,
  Coffee,
  CreditCard,
  GanttChart,
  FileClock,
  FolderTree,
  History,
  House,
  IdCard,
  KeyRound,
  KeySquare,
  LayoutGrid,
  LockKeyhole,
  MessageSquareText,
  Nfc,
  ScanFace,
  Tags,
  Usb,
  UserRound,
  Users,
  Wallet,
  WalletCards,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import type { UserInfo } from '@/lib/user-info';

export interface MenuItem {
  key: string;
  titleKey: string;
  icon: LucideIcon;
  /** A page of the console; sections have children instead. */
  to?: string;
  children?: MenuItem[];
  /** Shown only when the stored user info has this flag (spec §6: apiKeyAuth). */
  requiresFlag?: 'apiKeyAuth';
  /** Shown only to members holding this permission. */
  permission?: string;
  /** Other pages that belong to this entry (reached from it, not in the menu themselves). */
  alsoFor?: string[];
}

/** The menu shows what exists: each screen adds its entry here when it is built. */
export const MENU: MenuItem[] = [
  {
    key: 'front-desk',
    titleKey: 'menu.frontDesk',
    icon: BedDouble,
    children: [
      { key: 'today', titleKey: 'menu.today', icon: House, to: '/today', permission: 'room.read' },
      { key: 'room-board', titleKey: 'menu.roomBoard', icon: LayoutGrid, to: '/room', permission: 'room.read' },
      { key: 'timeline', titleKey: 'timeline.title', icon: GanttChart, to: '/timeline', permission: 'room.read' },
      { key: 'stays', titleKey: 'menu.stays', icon: UserRound, to: '/room/tenant', permission: 'room.read', alsoFor: ['/room/thetouristsDetails'] },
      { key: 'guests', titleKey: 'menu.guests', icon: Users, to: '/room/guests', permission: 'room.read' },
      { key: 'breakfast', titleKey: 'menu.breakfast', icon: Coffee, to: '/room/breakfast', permission: 'room.read' },
      { key: 'lock-messages', titleKey: 'menu.lockMessages', icon: BellRing, to: '/lock-messages', permission: 'room.read' },
      { key: 'unlock-records', titleKey: 'menu.unlockRecords', icon: History, to: '/unlock-records', permission: 'room.read' },
      { key: 'faces', titleKey: 'menu.faces', icon: ScanFace, to: '/faces', permission: 'room.read' },
    ],
  },
  {
    key: 'housekeeping',
    titleKey: 'menu.housekeeping',
    icon: BrushCleaning,
    children: [
      { key: 'housekeeping-day', titleKey: 'housekeeping.title', icon: ClipboardCheck, to: '/housekeeping', permission: 'housekeeping.manage' },
      { key: 'housekeeping-mine', titleKey: 'housekeeping.myRooms', icon: BrushCleaning, to: '/housekeeping/mine', permission: 'housekeeping.work' },
    ],
  },
  {
    key: 'cards',
    titleKey: 'menu.cards',
    icon: WalletCards,
    children: [
      {
        key: 'room-card-encryption',
        titleKey: 'menu.roomCardEncryption',
        icon: Nfc,
        to: '/cardToEncryption/cardToEncryption',
        permission: 'credential.manage',
      },
      {
        key: 'management-cards',
        titleKey: 'menu.managementCards',
        icon: IdCard,
        to: '/center/personalCenter/cardList',
        permission: 'credential.manage',
        alsoFor: ['/center/personalCenter/addCard'],
      },
      {
        key: 'universal-cards',
        titleKey: 'menu.universalCards',
        icon: KeySquare,
        to: '/center/personalCenter/universalCardList',
        permission: 'credential.manage',
        alsoFor: ['/center/personalCenter/addUniversalCard'],
      },
      {
        key: 'card-encryption',
        titleKey: 'menu.cardEncryption',
        icon: KeyRound,
        to: '/cardEncryption/cardEncryption',
        requiresFlag: 'apiKeyAuth',
        permission: 'hotel.manage',
      },
    ],
  },
  {
    key: 'room-setup',
    titleKey: 'menu.roomSetup',
    icon: FolderTree,
    children: [
      { key: 'room-groups', titleKey: 'menu.roomGroups', icon: FolderTree, to: '/room/category', permission: 'room.manage' },
      { key: 'price-templates', titleKey: 'menu.priceTemplates', icon: Tags, to: '/room/priceTemplate', permission: 'price.manage' },
      { key: 'calendar-feeds', titleKey: 'menu.calendarFeeds', icon: FolderTree, to: '/room/calendarFeeds', permission: 'room.manage' },
    ],
  },
  {
    key: 'desk-devices',
    titleKey: 'menu.deskDevices',
    icon: Usb,
    children: [
      {
        key: 'card-readers',
        titleKey: 'menu.cardReaders',
        icon: Usb,
        to: '/bindCardReaderToUser/cardReaderAndUserList',
        permission: 'room.read',
        alsoFor: ['/bindCardReaderToUser', '/center/personalCenter/cardSenderFingerTest'],
      },
      { key: 'card-dispensers', titleKey: 'menu.cardDispensers', icon: CreditCard, to: '/cardDispenser', permission: 'room.read' },
    ],
  },
  {
    key: 'customers',
    titleKey: 'menu.customers',
    icon: Users,
    children: [{ key: 'customer-list', titleKey: 'menu.customerList', icon: Users, to: '/customer/customer', permission: 'customer.read' }],
  },
  {
    key: 'orders',
    titleKey: 'menu.orders',
    icon: Wallet,
    children: [
      { key: 'balance', titleKey: 'menu.balance', icon: Wallet, to: '/order/balance', permission: 'order.manage' },
      // Cashier shifts: the front desk opens and closes its own (stay.manage); a manager sees every clerk's.
      { key: 'shifts', titleKey: 'menu.shifts', icon: Banknote, to: '/shifts', permission: 'stay.manage' },
      // The day report and its close, weeks and months: hotel-wide figures for managers.
      { key: 'reports', titleKey: 'menu.reports', icon: ChartColumn, to: '/reports', permission: 'order.manage' },
      // The trial balance of a business date, its drill-down and the ledgers' files: managers (docs/journal.md).
      // An icon already in the first download (housekeeping's): a checked list, as the books are.
      { key: 'trial-balance', titleKey: 'menu.trialBalance', icon: ClipboardCheck, to: '/order/trialBalance', permission: 'order.manage' },
    ],
  },
  {
    key: 'administration',
    titleKey: 'menu.administration',
    icon: FileClock,
    children: [
      { key: 'audit-log', titleKey: 'menu.auditLog', icon: FileClock, to: '/auditLog', permission: 'audit.read' },
      { key: 'hotel-info', titleKey: 'menu.hotelInfo', icon: House, to: '/hotelInfo', permission: 'hotel.manage' },
      { key: 'guest-messages', titleKey: 'guestMessages.title', icon: MessageSquareText, to: '/guestMessages', permission: 'stay.manage' },
      { key: 'access-rules', titleKey: 'accessRules.title', icon: KeySquare, to: '/accessRules', permission: 'hotel.manage' },
      // Webhooks (issue 29 §2): the hotel's endpoints for its other systems (a PMS, a channel manager).
      { key: 'webhooks', titleKey: 'webhooks.title', icon: Webhook, to: '/webhooks', permission: 'hotel.manage' },
      { key: 'lock-accounts', titleKey: 'menu.lockAccounts', icon: LockKeyhole, to: '/lockAccounts', permission: 'lock.accounts' },
      // An icon already in the first download (the customers' Users): UserCog would add a chunk of 0.4 kB to it.
      { key: 'staff', titleKey: 'menu.staff', icon: Users, to: '/staff', permission: 'staff.manage' },
      {
        key: 'third-party-authorization',
        titleKey: 'menu.thirdPartyAuthorization',
        icon: KeyRound,
        to: '/thirdPartyAuthorization/thirdPartyAuthorization',
        requiresFlag: 'apiKeyAuth',
        permission: 'apikey.manage',
      },
    ],
  },
  {
    key: 'account',
    titleKey: 'menu.account',
    icon: UserRound,
    children: [{ key: 'personal-center', titleKey: 'menu.personalCenter', icon: UserRound, to: '/center/personalCenter' }],
  },
];

/** The entries this user may see; sections left without entries disappear. */
export function visibleMenu(items: MenuItem[], user: UserInfo | null): MenuItem[] {
  return items.flatMap((item) => {
    if (item.requiresFlag && !user?.[item.requiresFlag]) return [];
    if (item.permission && !user?.permissions.includes(item.permission)) return [];
    if (item.children) {
      const children = visibleMenu(item.children, user);
      return children.length ? [{ ...item, children }] : [];
    }
    return [item];
  });
}

/** True when `pathname` is `path` or a page under it (`/room` covers `/room/12`, not `/roomy`). */
function isUnder(pathname: string, path: string): boolean {
  const base = path.replace(/\/+$/, '');
  return pathname === base || pathname.startsWith(`${base}/`) || (base === '' && pathname.startsWith('/'));
}

/**
 * The one entry to highlight for a page: the entry whose page is the nearest parent of it (the
 * longest match), so `/room/tenant` lights "Guests" only, and `/room/12` the room board.
 */
export function activeMenuKey(items: MenuItem[], pathname: string): string | undefined {
  let best: { key: string; length: number } | undefined;
  const visit = (entries: MenuItem[]) => {
    for (const item of entries) {
      if (item.children) visit(item.children);
      for (const path of [item.to, ...(item.alsoFor ?? [])]) {
        if (path === undefined || !isUnder(pathname, path)) continue;
        if (!best || path.length > best.length) best = { key: item.key, length: path.length };
      }
    }
  };
  visit(items);
  return best?.key;
}
