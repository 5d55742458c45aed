import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { settingsQueries } from './api';
import { IdentityCard } from './identity-card';
import { ProfileCard } from './profile-card';
import { SessionsCard } from './sessions-card';

/**
 * The personal centre (`/center/personalCenter`, spec §2; issue 9 §4): the signed-in account's
 * nickname and avatar, its e-mail and mobile (each change asks for the password), its sessions on
 * every face with "sign out everywhere else", and the links to management cards, universal cards
 * and the fingerprint test.
 */
export function PersonalCenterPage() {
  const { t } = useTranslation();
  const profile = useQuery(settingsQueries.profile());
  return (
    <div className="mx-auto grid max-w-4xl gap-4" data-testid="personal-center">
      <h1 className="text-xl font-semibold">{t('settings.personal.title')}</h1>
      {profile.data ? (
        <>
          {/* New forms only when the profile changed, not on every refetch: what is being typed stays. */}
          <ProfileCard key={`p${profile.data.nickname}|${profile.data.avatar ?? ''}`} profile={profile.data} />
          <IdentityCard key={`i${profile.data.email ?? ''}|${profile.data.mobile ?? ''}`} profile={profile.data} />
        </>
      ) : (
        <Card>
          <CardContent className="space-y-3 pt-6">
            {profile.isError ? (
              <p className="text-destructive text-sm">{t('settings.loadFailed')}</p>
            ) : (
              [0, 1, 2].map((i) => <div key={i} className="bg-muted h-9 w-full animate-pulse rounded-md" />)
            )}
          </CardContent>
        </Card>
      )}
      <SessionsCard />
      <LinksCard />
    </div>
  );
}

/** The personal centre's pages of the cards issue (spec §2: its hidden children). */
function LinksCard() {
  const { t } = useTranslation();
  const user = useUserInfo();
  const canCards = hasPermission(user, 'credential.manage');
  const links = [
    ...(canCards
      ? [
          { to: '/center/personalCenter/cardList', label: t('settings.personal.managementCards'), testId: 'link-management-cards' },
          { to: '/center/personalCenter/universalCardList', label: t('settings.personal.universalCards'), testId: 'link-universal-cards' },
        ]
      : []),
    { to: '/center/personalCenter/cardSenderFingerTest', label: t('settings.personal.fingerTest'), testId: 'link-finger-test' },
  ] as const;
  return (
    <Card>
      <CardHeader>
        <h2 className="leading-none font-semibold">{t('settings.personal.tools')}</h2>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        {links.map((l) => (
          <Button key={l.to} asChild variant="outline">
            <Link to={l.to} data-testid={l.testId}>
              {l.label}
            </Link>
          </Button>
        ))}
      </CardContent>
    </Card>
  );
}
