import { isValidElement, lazy, Suspense, useEffect, useState, type ComponentType, type ReactElement, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter, matchRoutes, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router-dom';
import { readSessionAhead, sessionQuery } from './api/auth';
import { joinAvailabilityQuery } from './api/invites';
import { linkQuery } from './api/links';
import { readAhead } from './api/queryClient';
import { wishlistQuery } from './api/wishlists';
import { takeHeldClick } from './markupClicks';
import { nextTask, useHeld } from './takeover';
import { fromLocation } from './state/navigation';
import { AppLayout } from './components/AppLayout';
import { ProtectedRoute } from './components/ProtectedRoute';
import { PageSpinner } from './components/Spinner';

/** A page's own chunk, loaded on first use; `preload` fetches it ahead (main.tsx, before the first render). */
interface PageComponent {
  (): ReactElement | null;
  preload: () => Promise<void>;
}

/**
 * One chunk per page, so a visitor's first load carries only the page it opens. A page
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
    if (useHeld('page')) return null;
    if (Ready) return <Ready />;
    return (
      <Suspense fallback={<PageSpinner />}>
        <Lazy />
      </Suspense>
    );
  };
  return Object.assign(Page, { preload });
}

const ConversationsPage = page(() => import('./pages/conversations/ConversationsPage'), 'ConversationsPage');
const CreateInvitePage = page(() => import('./pages/invites/CreateInvitePage'), 'CreateInvitePage');
const HomePage = page(() => import('./pages/home/HomePage'), 'HomePage');
const InvitePage = page(() => import('./pages/invites/InvitePage'), 'InvitePage');
const LinkPage = page(() => import('./pages/link/LinkPage'), 'LinkPage');
const LoginPage = page(() => import('./pages/login/LoginPage'), 'LoginPage');
const ForgotPasswordPage = page(() => import('./pages/password/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = page(() => import('./pages/password/ResetPasswordPage'), 'ResetPasswordPage');
const MessagesPage = page(() => import('./pages/messages/MessagesPage'), 'MessagesPage');
const MoneyHistoryPage = page(() => import('./pages/money/MoneyHistoryPage'), 'MoneyHistoryPage');
const GoodbyePage = page(() => import('./pages/goodbye/GoodbyePage'), 'GoodbyePage');
const NotFoundPage = page(() => import('./pages/not-found/NotFoundPage'), 'NotFoundPage');
const NotificationsPage = page(() => import('./pages/notifications/NotificationsPage'), 'NotificationsPage');
const OrdersPage = page(() => import('./pages/orders/OrdersPage'), 'OrdersPage');
const LegalPage = page(() => import('./pages/legal/LegalPage'), 'LegalPage');
const ProfilePage = page(() => import('./pages/profile/ProfilePage'), 'ProfilePage');
const RegisterPage = page(() => import('./pages/register/RegisterPage'), 'RegisterPage');
const SettingsPage = page(() => import('./pages/settings/SettingsPage'), 'SettingsPage');
const PayoutsSetupPage = page(() => import('./pages/payouts/PayoutsSetupPage'), 'PayoutsSetupPage');
const SharePage = page(() => import('./pages/share/SharePage'), 'SharePage');
const SubscriptionPage = page(() => import('./pages/subscription/SubscriptionPage'), 'SubscriptionPage');
const WishlistPage = page(() => import('./pages/wishlist/WishlistPage'), 'WishlistPage');

/**
 * The routes, in React Router's declarative mode (`useRoutes`): the app uses no loaders or actions,
 * and the data router (`createBrowserRouter`) would add ~15 KB gzip to every first load.
 */
const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password/:token', element: <ResetPasswordPage /> },
      { path: '/goodbye', element: <GoodbyePage /> },
      { path: '/terms', element: <LegalPage /> },
      { path: '/privacy', element: <LegalPage /> },
      { path: '/register', element: <RegisterPage /> },
      { path: '/register/:inviteId', element: <RegisterPage /> },
      { path: '/invite/:inviteId?', element: <InvitePage /> },
      { path: '/invites/accept/:inviteId?', element: <InvitePage /> },
      { path: '/link/:username', element: <LinkPage /> },
      // Open to visitors; only the owner edits.
      { path: '/wishlist/:username', element: <WishlistPage /> },
      // Signed out: 'Please log in to subscribe.' (PRODUCT.md §5); another user's page redirects to /.
      { path: '/manage-subscription/:username', element: <SubscriptionPage /> },
      {
        element: <ProtectedRoute />,
        children: [
          { path: '/profile/:username', element: <ProfilePage /> },
          { path: '/profile/:username/settings', element: <SettingsPage /> },
          { path: '/settings/payouts/:step', element: <PayoutsSetupPage /> },
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
];

/** What a first page reads before it renders: its data as the viewer (null: a visitor) sees it. */
type PageData = (queryClient: QueryClient, username: string, viewerId: string | null) => Promise<void>;

/**
 * A page's data and, for a visitor, whether its banner offers 'Join Giftlink' (VisitorBanner): the
 * server's markup already says so, and the banner must not grow under the page once the app is in.
 */
const withJoin =
  (data: PageData): PageData =>
  async (queryClient, username, viewerId) => {
    await Promise.all([
      data(queryClient, username, viewerId),
      viewerId ? undefined : readAhead(queryClient, joinAvailabilityQuery(username)),
    ]);
  };

/**
 * The pages a shared address opens without signing in (the server sends their markup): their
 * chunk, the session and their data load before the first render, so the page replaces the
 * server's markup as it is, with no spinner in between.
 */
const FIRST_PAGES: [RegExp, PageData][] = [
  [/^\/link\/([^/]+)\/?$/, withJoin((queryClient, username, viewerId) => readAhead(queryClient, linkQuery(username, viewerId)))],
  [/^\/wishlist\/([^/]+)\/?$/, withJoin((queryClient, username, viewerId) => readAhead(queryClient, wishlistQuery(username, viewerId)))],
];

/** The shared page at `pathname` (its username and what it reads), if it is one. */
function firstPage(pathname: string): { username: string; data: PageData } | undefined {
  for (const [pattern, data] of FIRST_PAGES) {
    const segment = pattern.exec(pathname)?.[1];
    if (!segment) continue;
    try {
      return { username: decodeURIComponent(segment), data };
    } catch {
      return undefined; // malformed percent-encoding: the page says the link is not found
    }
  }
  return undefined;
}

const isPage = (element: ReactNode): element is ReactElement<unknown, PageComponent> =>
  isValidElement(element) && typeof element.type === 'function' && 'preload' in element.type;

/**
 * Loads what the page at `pathname` needs ahead of the first render: its chunk, alongside the
 * session (which the layout waits for); for a shared page also its data, as the session's viewer
 * sees it, so it renders in place of the server's markup at once. The session, the chunk and the
 * data each start in a task of their own (takeover.ts: short tasks on a slow phone). `withSession`:
 * also the session's answer, for an app that takes the server's markup over: until the session is
 * known the layout is a spinner, which must never replace the markup (nor the fields typed into).
 */
export async function preloadPage(pathname: string, queryClient: QueryClient, withSession = false): Promise<void> {
  const session = readSessionAhead(queryClient);
  await nextTask();
  const pages = (matchRoutes(routes, pathname) ?? []).map((match) => match.route.element).filter(isPage);
  const chunks = Promise.all(pages.map((element) => element.type.preload()));
  const first = firstPage(pathname);
  const data = async () => {
    if (!first) return;
    await Promise.all([session, nextTask()]);
    await first.data(queryClient, first.username, queryClient.getQueryData(sessionQuery.queryKey)?._id ?? null);
  };
  await Promise.all([chunks, data(), withSession ? session : undefined]).catch(() => undefined);
}

function Routes() {
  return useRoutes(routes);
}

/** Follows a link of the server's markup clicked before the app took over, as the app's own link would. */
function FollowHeldClick() {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    const href = takeHeldClick();
    if (href) void navigate(href, { state: fromLocation(location) });
  }, [navigate, location]);
  return null;
}

export function App() {
  return (
    <BrowserRouter>
      <FollowHeldClick />
      <Routes />
    </BrowserRouter>
  );
}
