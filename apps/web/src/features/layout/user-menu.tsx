import { Suspense, lazy, useEffect, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useMenuStandIn } from '@/components/menu-stand-in';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { trpc } from '@/lib/trpc';
import { whenIdle } from '@/lib/lazy';
import { clearUserInfo, readUserInfo, useUserInfo } from '@/lib/user-info';
import { loadHotelSwitch } from './hotel-switch-load';

/** The menu itself (radix's menu: a chunk of its own, with the console's other menus), loaded when the page is idle. */
const loadContent = () => import('./user-menu-content');
const UserMenuContent = lazy(() => loadContent().then((m) => ({ default: m.UserMenuContent })));

/**
 * Home, Change password, Sign out (spec §2). Sign out calls logout, then /login with the redirect
 * parameter. An account of several hotels sees the hotel it works in under its name, and switches
 * hotel here (hotel-switch.tsx, a chunk of its own: the list is asked for when the menu opens). The
 * menu (user-menu-content.tsx) is mounted at the first press of its button.
 */
export function UserMenu() {
  const { t } = useTranslation();
  const { openedBy, standInProps } = useMenuStandIn(loadContent);
  const user = useUserInfo();
  const navigate = useNavigate();
  const here = useRouterState({ select: (s) => s.location.href });
  const logout = useMutation(
    trpc.auth.logout.mutationOptions({
      onSettled: () => {
        clearUserInfo();
        void navigate({ to: '/login', search: { redirect: here } });
      },
    }),
  );
  const name = user?.nickname || user?.mobile || user?.email || '';
  // Stored user info written before hotelCount existed has none: one hotel until auth.me refreshes it.
  const hasHotels = (user?.hotelCount ?? 1) > 1;
  useEffect(() => (hasHotels ? whenIdle(() => void loadHotelSwitch().catch(() => undefined)) : undefined), [hasHotels]);
  // The tabs of a browser share the session, so a switch in another tab moves this one too: when
  // this tab is shown again and the stored user info names another hotel than the one this page
  // started in, the page starts again (nothing of the old hotel stays on screen or in its cache).
  const startedIn = useRef(user?.hotel.id);
  useEffect(() => {
    if (!hasHotels) return;
    const check = () => {
      const now = readUserInfo()?.hotel.id;
      if (document.visibilityState === 'visible' && now !== undefined && now !== startedIn.current) window.location.reload();
    };
    document.addEventListener('visibilitychange', check);
    window.addEventListener('focus', check);
    return () => {
      document.removeEventListener('visibilitychange', check);
      window.removeEventListener('focus', check);
    };
  }, [hasHotels]);
  const button = (props: object) => (
    <Button variant="ghost" className="h-10 gap-2 px-2" data-testid="user-menu" {...props}>
      <Avatar className="size-8">
        {user?.avatar && <AvatarImage src={user.avatar} alt="" />}
        <AvatarFallback>{name.slice(0, 1).toUpperCase()}</AvatarFallback>
      </Avatar>
      <span className="hidden max-w-40 flex-col items-start text-start md:flex">
        <span className="max-w-full truncate text-sm">{name}</span>
        {hasHotels && (
          <span className="text-muted-foreground max-w-full truncate text-xs font-normal" data-testid="user-menu-hotel">
            {user?.hotel.name}
          </span>
        )}
      </span>
      <ChevronDown className="size-4 opacity-60" aria-hidden />
      {/* Named also where the name is hidden (narrow screens) or not known yet. */}
      <span className="sr-only">{t('layout.account')}</span>
    </Button>
  );
  const standIn = button(standInProps);
  if (!openedBy) return standIn;
  return (
    <Suspense fallback={standIn}>
      <UserMenuContent
        trigger={button({})}
        openedWithKeyboard={openedBy === 'keyboard'}
        name={name}
        hotelName={user?.hotel.name ?? ''}
        hasHotels={hasHotels}
        signingOut={logout.isPending}
        onHome={() => void navigate({ to: '/' })}
        onChangePassword={() => void navigate({ to: '/user/changePsw' })}
        onSignOut={() => logout.mutate()}
      />
    </Suspense>
  );
}
