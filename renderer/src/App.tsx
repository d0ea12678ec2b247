import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { AppLayout } from './components/AppLayout';
import { ProtectedRoute } from './components/ProtectedRoute';
import { PageSpinner } from './components/Spinner';

/** A page's own chunk, loaded on first use; `preload` fetches it ahead (main.tsx, before the first render). */
interface PageComponent {
  (): ReactElement;
  preload: () => Promise<void>;
}

/**
 * One chunk per page, so a visitor's first load carries only the page it opens (issue 15). A page
 * already loaded renders at once; one not yet loaded shows the page spinner while its chunk arrives.
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): PageComponent {
  let loaded: ComponentType | undefined;
  const preload = async () => {
    loaded ??= (await load())[name];
  };
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded ?? (() => null) };
  });
  const Page = () => {
    const [Ready] = useState(() => loaded);
    if (Ready) return <Ready />;
    return (
      <Suspense fallback={<PageSpinner />}>
        <Lazy />
      </Suspense>
    );
  };
  return Object.assign(Page, { preload });
}

const ConversationsPage = page(() => import('./pages/ConversationsPage'), 'ConversationsPage');
const CreateInvitePage = page(() => import('./pages/CreateInvitePage'), 'CreateInvitePage');
const HomePage = page(() => import('./pages/HomePage'), 'HomePage');
const InvitePage = page(() => import('./pages/InvitePage'), 'InvitePage');
const LinkPage = page(() => import('./pages/LinkPage'), 'LinkPage');
const LoginPage = page(() => import('./pages/LoginPage'), 'LoginPage');
const ForgotPasswordPage = page(() => import('./pages/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = page(() => import('./pages/ResetPasswordPage'), 'ResetPasswordPage');
const MessagesPage = page(() => import('./pages/MessagesPage'), 'MessagesPage');
const MoneyHistoryPage = page(() => import('./pages/money/MoneyHistoryPage'), 'MoneyHistoryPage');
const GoodbyePage = page(() => import('./pages/GoodbyePage'), 'GoodbyePage');
const NotFoundPage = page(() => import('./pages/NotFoundPage'), 'NotFoundPage');
const NotificationsPage = page(() => import('./pages/NotificationsPage'), 'NotificationsPage');
const OrdersPage = page(() => import('./pages/orders/OrdersPage'), 'OrdersPage');
const ProfilePage = page(() => import('./pages/ProfilePage'), 'ProfilePage');
const RegisterPage = page(() => import('./pages/RegisterPage'), 'RegisterPage');
const SettingsPage = page(() => import('./pages/SettingsPage'), 'SettingsPage');
const SharePage = page(() => import('./pages/SharePage'), 'SharePage');
const SubscriptionPage = page(() => import('./pages/subscription/SubscriptionPage'), 'SubscriptionPage');
const WishlistPage = page(() => import('./pages/WishlistPage'), 'WishlistPage');

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

/** The pages a shared address opens without signing in: their chunk loads before the first render. */
const FIRST_PAGES: [RegExp, PageComponent][] = [
  [/^\/link\/[^/]+\/?$/, LinkPage],
  [/^\/wishlist\/[^/]+\/?$/, WishlistPage],
];

/** Loads the chunk of the page at `pathname` ahead of the first render (a no-op for other pages). */
export async function preloadPage(pathname: string): Promise<void> {
  const hit = FIRST_PAGES.find(([pattern]) => pattern.test(pathname));
  await hit?.[1].preload().catch(() => undefined);
}

export function App() {
  return <RouterProvider router={router} />;
}
