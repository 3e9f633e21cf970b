import type { UpdateProfileBody, UserUpdateAnswer } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-provider';

/** PUT /api/user/profile: first and last name and username (the email cannot be changed). */
export function updateProfile(body: UpdateProfileBody): Promise<UserUpdateAnswer> {
  return api.put<UserUpdateAnswer>('/api/user/profile', body);
}

export function useUpdateProfile() {
  const { updateUser } = useAuth();
  return useMutation({ mutationFn: updateProfile, onSuccess: (answer) => updateUser(answer.user) });
}
