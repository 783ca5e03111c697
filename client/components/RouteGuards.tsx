// Route access of SPEC §2: protected pages need a session, /login and /register need none.
// While a stored token is being checked, both show the loading indicator instead of guessing.
import { useSignals } from '@preact/signals-react/runtime';
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { currentUser, sessionLoading } from '../state/session.ts';
import { Loading } from './Loading.tsx';

export function RequireAuth({ children }: { children: ReactNode }) {
  useSignals();
  if (sessionLoading.value) return <Loading />;
  if (!currentUser.value) return <Redirect to="/login" replace />;
  return children;
}

export function GuestOnly({ children }: { children: ReactNode }) {
  useSignals();
  if (sessionLoading.value) return <Loading />;
  if (currentUser.value) return <Redirect to="/" replace />;
  return children;
}
