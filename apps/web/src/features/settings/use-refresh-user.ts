import { useQueryClient } from '@tanstack/react-query';
import { readUserInfo, writeUserInfo } from '@/lib/user-info';
import { invalidateProfile } from './api';

/** The signed-in account's profile as the personal centre shows it. */
export type Profile = { id: number; nickname: string; avatar: string | null; mobile: string | null; email: string | null };

/**
 * After a change the navbar's name and avatar follow: the server's answer (the profile as saved) is
 * written into the stored user info at once, and the user info is asked again (the navbar does not
 * wait for that second answer, which a busy server or a dropped request could hold back).
 */
export function useRefreshUser() {
  const queryClient = useQueryClient();
  return (saved?: Profile) => {
    const stored = readUserInfo();
    if (saved && stored) writeUserInfo({ ...stored, nickname: saved.nickname, avatar: saved.avatar, mobile: saved.mobile, email: saved.email });
    return invalidateProfile(queryClient);
  };
}
