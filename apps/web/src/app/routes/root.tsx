import { Outlet } from 'react-router';
import { AuthProvider } from '@/lib/auth/auth-provider';

export function RootRoute() {
  return (
    <AuthProvider>
      <Outlet />
    </AuthProvider>
  );
}
