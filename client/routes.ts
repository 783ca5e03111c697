// Every address the app answers (SPEC §2), written once: App.tsx routes them in the browser, the
// server renders the public ones (server/pages/pages.table.ts) and answers any other path with the
// not-found page and a 404 (server/pages/pages.routes.ts).
export const ROUTES = {
  home: '/',
  article: '/post/:id',
  pulse: '/ranks',
  voices: '/authors',
  search: '/search',
  moderation: '/moderation',
  about: '/about',
  rules: '/rules',
  privacy: '/privacy',
  terms: '/terms',
  author: '/beatnik/:username',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  unsubscribe: '/unsubscribe',
  write: '/write',
  profile: '/profile',
  notifications: '/notifications',
  admin: '/admin',
  settings: '/settings',
} as const;
