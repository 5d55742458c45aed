import { useState, type ComponentProps } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

/**
 * A password field with a show/hide button at its end. The button and the room kept for it are
 * both logical (end), so they stay on the same side in a right-to-left language.
 */
export function PasswordInput({ className, ...props }: Omit<ComponentProps<typeof Input>, 'type'>) {
  const { t } = useTranslation();
  const [isVisible, setIsVisible] = useState(false);
  return (
    <div className="relative">
      <Input {...props} type={isVisible ? 'text' : 'password'} className={cn('pe-10', className)} />
      <button
        type="button"
        className="text-muted-foreground hover:text-foreground focus-visible:ring-ring absolute inset-y-0 end-0 flex w-10 items-center justify-center rounded-md outline-none focus-visible:ring-2"
        aria-label={isVisible ? t('auth.hidePassword') : t('auth.showPassword')}
        aria-pressed={isVisible}
        data-slot="password-toggle"
        onClick={() => setIsVisible((v) => !v)}
      >
        {isVisible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
      </button>
    </div>
  );
}
