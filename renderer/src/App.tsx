import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { AppLayout } from './components/AppLayout';
import { ProtectedRoute } from './components/ProtectedRoute';
import { ConversationsPage } from './pages/ConversationsPage';
import { CreateInvitePage } from './pages/CreateInvitePage';
import { HomePage } from './pages/HomePage';
import { InvitePage } from './pages/InvitePage';
import { LinkPage } from './pages/LinkPage';
import { LoginPage } from './pages/LoginPage';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { MessagesPage } from './pages/MessagesPage';
import { MoneyHistoryPage } from './pages/money/MoneyHistoryPage';
import { GoodbyePage } from './pages/GoodbyePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { NotificationsPage } from './pages/NotificationsPage';
import { OrdersPage } from './pages/orders/OrdersPage';
import { ProfilePage } from './pages/ProfilePage';
import { RegisterPage } from './pages/RegisterPage';
import { SettingsPage } from './pages/SettingsPage';
import { SharePage } from './pages/SharePage';
import { SubscriptionPage } from './pages/subscription/SubscriptionPage';
import { WishlistPage } from './pages/WishlistPage';

const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password/:token', element: <ResetPasswordPage /> },
      { path: '/goodbye', element: <GoodbyePage /> },
      { path: '/register', element: <RegisterPage /> },
      { path: '/register/:inviteId', element: <RegisterPage /> },
      { path: '/invite/:inviteId?', element: <InvitePage /> },
      { path: '/invites/accept/:inviteId?', element: <InvitePage /> },
      { path: '/link/:username', element: <LinkPage /> },
      // Open to visitors; only the owner edits.
      { path: '/wishlist/:username', element: <WishlistPage /> },
      // Signed out: 'Please log in to subscribe.' (SPEC 5); another user's page redirects to /.
      { path: '/manage-subscription/:username', element: <SubscriptionPage /> },
      {
        element: <ProtectedRoute />,
        children: [
          { path: '/profile/:username', element: <ProfilePage /> },
          { path: '/profile/:username/settings', element: <SettingsPage /> },
          { path: '/create-invite', element: <CreateInvitePage /> },
          { path: '/share', element: <SharePage /> },
          { path: '/notifications', element: <NotificationsPage /> },
          { path: '/conversations', element: <ConversationsPage /> },
          { path: '/messages/:conversationId', element: <MessagesPage /> },
          { path: '/money', element: <MoneyHistoryPage /> },
          { path: '/orders', element: <OrdersPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function App() {
  return <RouterProvider router={router} />;
}
