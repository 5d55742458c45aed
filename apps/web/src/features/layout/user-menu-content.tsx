import { Suspense, lazy, type ReactNode } from 'react';
import { House, KeyRound, LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  useFirstItemFocus,
} from '@/components/ui/dropdown-menu';
import { loadHotelSwitch } from './hotel-switch-load';

const HotelSwitch = lazy(() => loadHotelSwitch().then((m) => ({ default: m.HotelSwitch })));

/**
 * The menu of `UserMenu` (user-menu.tsx), in the chunk of the console's menus: mounted open by the
 * first press of the button that stood in for its trigger.
 */
export function UserMenuContent({
  trigger,
  openedWithKeyboard,
  name,
  hotelName,
  hasHotels,
  signingOut,
  onHome,
  onChangePassword,
  onSignOut,
}: {
  trigger: ReactNode;
  openedWithKeyboard: boolean;
  name: string;
  hotelName: string;
  hasHotels: boolean;
  signingOut: boolean;
  onHome: () => void;
  onChangePassword: () => void;
  onSignOut: () => void;
}) {
  const { t } = useTranslation();
  const onFocus = useFirstItemFocus(openedWithKeyboard);
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-52" onFocus={onFocus}>
        <DropdownMenuLabel className="font-normal">
          <div className="truncate text-sm font-medium">{name}</div>
          <div className="text-muted-foreground truncate text-xs">{hotelName}</div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {hasHotels && (
          <Suspense fallback={null}>
            <HotelSwitch />
          </Suspense>
        )}
        <DropdownMenuItem onSelect={onHome}>
          <House className="size-4" aria-hidden />
          {t('layout.home')}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onChangePassword}>
          <KeyRound className="size-4" aria-hidden />
          {t('layout.changePassword')}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" data-testid="sign-out" disabled={signingOut} onSelect={onSignOut}>
          <LogOut className="size-4 rtl:rotate-180" aria-hidden />
          {t('layout.signOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
