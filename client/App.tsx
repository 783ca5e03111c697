// The one route list (SPEC §2; its addresses in routes.ts) and the page chrome around it.
import { Suspense, lazy, useEffect, useRef, type ReactNode } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { Footer } from './components/Footer.tsx';
import { Header } from './components/Header.tsx';
import { IconBar } from './components/IconBar.tsx';
import { Loading } from './components/Loading.tsx';
import { GuestOnly, RequireAuth } from './components/RouteGuards.tsx';
import { ToastHost } from './components/ToastHost.tsx';
import { VerifyEmailBanner } from './components/VerifyEmailBanner.tsx';
import { AuthorPage } from './pages/AuthorPage.tsx';
import { FrontPage } from './pages/FrontPage.tsx';
import { ModerationPage } from './pages/ModerationPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { PostPage } from './pages/PostPage.tsx';
import { PulsePage } from './pages/PulsePage.tsx';
import { SearchPage } from './pages/SearchPage.tsx';
import { SitePage } from './pages/SitePage.tsx';
import { VoicesPage } from './pages/VoicesPage.tsx';
import { ROUTES } from './routes.ts';

// The reader pages come with the first script; the other screens load on first use (screens.ts).
const screens = () => import('./screens.ts');
const LoginPage = lazy(() => screens().then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() => screens().then((m) => ({ default: m.RegisterPage })));
const ForgotPasswordPage = lazy(() => screens().then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => screens().then((m) => ({ default: m.ResetPasswordPage })));
const VerifyEmailPage = lazy(() => screens().then((m) => ({ default: m.VerifyEmailPage })));
const UnsubscribePage = lazy(() => screens().then((m) => ({ default: m.UnsubscribePage })));
const WritePage = lazy(() => screens().then((m) => ({ default: m.WritePage })));
const ProfilePage = lazy(() => screens().then((m) => ({ default: m.ProfilePage })));
const NotificationsPage = lazy(() => screens().then((m) => ({ default: m.NotificationsPage })));
const AdminPage = lazy(() => screens().then((m) => ({ default: m.AdminPage })));
const SettingsPage = lazy(() => screens().then((m) => ({ default: m.SettingsPage })));

/**
 * A screen loaded on first use shows the loading line until its code is there. Only those: the
 * pages the server renders sit in no Suspense boundary, since React hydrates a boundary's content
 * in a pass of its own after the rest, after the session may already have changed what it shows.
 */
function OnFirstUse({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

function Routes() {
  return (
    <Switch>
      <Route path={ROUTES.home}><FrontPage /></Route>
      <Route path={ROUTES.article}>{(params) => <PostPage key={params.id} id={params.id} />}</Route>
      <Route path={ROUTES.pulse}><PulsePage /></Route>
      <Route path={ROUTES.voices}><VoicesPage /></Route>
      <Route path={ROUTES.search}><SearchPage /></Route>
      <Route path={ROUTES.moderation}><ModerationPage /></Route>
      <Route path={ROUTES.about}><SitePage key="about" page="about" /></Route>
      <Route path={ROUTES.rules}><SitePage key="rules" page="rules" /></Route>
      <Route path={ROUTES.privacy}><SitePage key="privacy" page="privacy" /></Route>
      <Route path={ROUTES.terms}><SitePage key="terms" page="terms" /></Route>
      <Route path={ROUTES.author}>
        {(params) => <AuthorPage key={params.username} username={params.username} />}
      </Route>
      <Route path={ROUTES.login}><GuestOnly><OnFirstUse><LoginPage /></OnFirstUse></GuestOnly></Route>
      <Route path={ROUTES.register}><GuestOnly><OnFirstUse><RegisterPage /></OnFirstUse></GuestOnly></Route>
      <Route path={ROUTES.forgotPassword}><GuestOnly><OnFirstUse><ForgotPasswordPage /></OnFirstUse></GuestOnly></Route>
      <Route path={ROUTES.resetPassword}><OnFirstUse><ResetPasswordPage /></OnFirstUse></Route>
      <Route path={ROUTES.verifyEmail}><OnFirstUse><VerifyEmailPage /></OnFirstUse></Route>
      <Route path={ROUTES.unsubscribe}><OnFirstUse><UnsubscribePage /></OnFirstUse></Route>
      <Route path={ROUTES.write}><RequireAuth><OnFirstUse><WritePage /></OnFirstUse></RequireAuth></Route>
      <Route path={ROUTES.profile}><RequireAuth><OnFirstUse><ProfilePage /></OnFirstUse></RequireAuth></Route>
      <Route path={ROUTES.notifications}><RequireAuth><OnFirstUse><NotificationsPage /></OnFirstUse></RequireAuth></Route>
      <Route path={ROUTES.admin}><RequireAuth><OnFirstUse><AdminPage /></OnFirstUse></RequireAuth></Route>
      <Route path={ROUTES.settings}><RequireAuth><OnFirstUse><SettingsPage /></OnFirstUse></RequireAuth></Route>
      <Route><NotFoundPage /></Route>
    </Switch>
  );
}

/** A new page starts at its top, as a new page of a paper would. Not the first: a reader may have
 * scrolled the server's page already while the script was on its way. */
function ScrollToTop() {
  const [location] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else window.scrollTo(0, 0);
  }, [location]);
  return null;
}

export function App() {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <ScrollToTop />
      <div className="sheet">
        <Header />
        <VerifyEmailBanner />
        <main id="main" className="content" tabIndex={-1}>
          <Routes />
        </main>
        <Footer />
      </div>
      <IconBar />
      <ToastHost />
    </>
  );
}
