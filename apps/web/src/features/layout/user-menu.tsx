import { Suspense, lazy, useEffect, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { ChevronDown, House, KeyRound, LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { trpc } from '@/lib/trpc';
import { whenIdle } from '@/lib/lazy';
import { clearUserInfo, readUserInfo, useUserInfo } from '@/lib/user-info';

/** The hotel switch is a chunk of its own: only accounts of several hotels load it, when the page is idle. */
const loadHotelSwitch = () => import('./hotel-switch');
const HotelSwitch = lazy(() => loadHotelSwitch().then((m) => ({ default: m.HotelSwitch })));

/**
 * Home, Change password, Sign out (spec §2). Sign out calls logout, then /login with the redirect
 * parameter. An account of several hotels sees the hotel it works in under its name, and switches
 * hotel here (hotel-switch.tsx, a chunk of its own: the list is asked for when the menu opens).
 */
export function UserMenu() {
  const { t } = useTranslation();
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
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="h-10 gap-2 px-2" data-testid="user-menu">
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
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-52">
        <DropdownMenuLabel className="font-normal">
          <div className="truncate text-sm font-medium">{name}</div>
          <div className="text-muted-foreground truncate text-xs">{user?.hotel.name}</div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {hasHotels && (
          <Suspense fallback={null}>
            <HotelSwitch />
          </Suspense>
        )}
        <DropdownMenuItem onSelect={() => void navigate({ to: '/' })}>
          <House className="size-4" aria-hidden />
          {t('layout.home')}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void navigate({ to: '/user/changePsw' })}>
          <KeyRound className="size-4" aria-hidden />
          {t('layout.changePassword')}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" data-testid="sign-out" disabled={logout.isPending} onSelect={() => logout.mutate()}>
          <LogOut className="size-4 rtl:rotate-180" aria-hidden />
          {t('layout.signOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
