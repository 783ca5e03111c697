// The screens a reader who only reads never opens: signing in, writing, the author's own pages
// and the admin panel. App.tsx and PostPage.tsx load them with React.lazy from this one module,
// so they arrive as one chunk on first use and the first visit downloads and runs less code.
// (One dynamic import, not one per page: each would split the shared code into more chunks,
// and every chunk is another request before a page can start.)
export { AdminPage } from './pages/AdminPage.tsx';
export { LoginPage } from './pages/LoginPage.tsx';
export { ForgotPasswordPage } from './pages/ForgotPasswordPage.tsx';
export { VerifyEmailPage } from './pages/VerifyEmailPage.tsx';
export { UnsubscribePage } from './pages/UnsubscribePage.tsx';
export { ResetPasswordPage } from './pages/ResetPasswordPage.tsx';
export { NotificationsPage } from './pages/NotificationsPage.tsx';
export { ProfilePage } from './pages/ProfilePage.tsx';
export { RegisterPage } from './pages/RegisterPage.tsx';
export { SettingsPage } from './pages/SettingsPage.tsx';
export { WritePage } from './pages/WritePage.tsx';
export { EditArticleModal } from './components/article-form/EditArticleModal.tsx';
export { ReportDialog } from './components/reader/ReportDialog.tsx';
export { DeleteCommentDialog } from './components/admin/AdminDialogs.tsx';
