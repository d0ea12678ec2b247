import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { ADDRESS_ASK_TITLE } from '../../../../api/contract/texts';
import {
  ORDERS_ERROR,
  useAddressQuery,
  useOrdersQuery,
  type GiverOrderStatus,
  type OrderStatus,
  type ReceivedOrderView,
  type SentOrderView,
} from '../../api/orders';
import { MapPinIcon, PackageIcon } from '../../components/Icons';
import { PageSpinner } from '../../components/Spinner';
import { RetryAlert } from '../../components/RetryAlert';
import { usePageTitle } from '../../components/usePageTitle';
import { formatDate, formatDollars } from '../../format';
import { userAtom } from '../../state/session';
import './OrdersPage.css';

type Role = AnyOrder['role'];
type AnyOrder = ReceivedOrderView | SentOrderView;

/** What each status says to the recipient, who is never told who gave. */
const RECEIVED_TEXT: Record<OrderStatus, string> = {
  awaiting_address: 'Waiting for your address',
  placed: 'Ordered',
  shipped: 'Shipped',
  delivered: 'Delivered',
  refunded: 'Cancelled',
};

/** What each status says to the giver, who is never told whether the recipient has an address. */
const SENT_TEXT: Record<GiverOrderStatus, string> = {
  processing: 'Processing',
  placed: 'Ordered',
  shipped: 'Shipped',
  delivered: 'Delivered',
  refunded: 'Refunded to you',
};

const statusText = (order: AnyOrder): string => (order.role === 'giver' ? SENT_TEXT[order.status] : RECEIVED_TEXT[order.status]);

const day = (iso: string) => formatDate(iso);

/** The line under an order's title: what happened last, and when. */
function whenLine(order: AnyOrder): string {
  if (order.role === 'recipient' && order.status === 'awaiting_address' && order.addressDueAt)
    return `Add your address by ${day(order.addressDueAt)}`;
  if (order.role === 'giver' && order.status === 'processing') return `Sent ${day(order.createdAt)}`;
  if (order.status === 'delivered' && order.deliveredAt) return `Delivered ${day(order.deliveredAt)}`;
  if (order.status === 'shipped' && order.shippedAt) return `Shipped ${day(order.shippedAt)}`;
  if (order.status === 'refunded' && order.refundedAt)
    return order.role === 'recipient' ? `No address arrived in time · ${day(order.refundedAt)}` : `Refunded ${day(order.refundedAt)}`;
  if (order.placedAt) return `Ordered ${day(order.placedAt)}`;
  return day(order.createdAt);
}

/** The user's item orders, received and sent, with their statuses. */
export function OrdersPage() {
  usePageTitle('Orders');
  const user = useAtomValue(userAtom);
  const { data, isPending, isError, refetch } = useOrdersQuery();
  const address = useAddressQuery();
  const waiting = (data?.received ?? []).filter((o) => o.status === 'awaiting_address').length;
  const settings = user ? `/profile/${encodeURIComponent(user.username)}/settings#address` : '/';

  return (
    <div className="orders">
      <header className="page-header">
        <h1>Orders</h1>
        <p>Item gifts you received and sent. Givers stay anonymous, and your address is only yours.</p>
      </header>

      {waiting > 0 && address.data && !address.data.address ? (
        <div className="card orders__ask" role="note">
          <span className="orders__ask-icon" aria-hidden="true">
            <MapPinIcon size={22} />
          </span>
          <div>
            <h2>{ADDRESS_ASK_TITLE}</h2>
            <p className="muted">
              {waiting === 1 ? 'A gift is' : `${waiting} gifts are`} waiting to be sent to you. Gifts wait 14 days for an address.
            </p>
          </div>
          <Link to={settings} className="btn btn--primary btn--sm">
            Add address
          </Link>
        </div>
      ) : null}

      {isPending ? <PageSpinner label="Loading orders" /> : null}
      {isError && !data ? <RetryAlert message={ORDERS_ERROR} onRetry={() => void refetch()} /> : null}

      {data ? (
        <>
          <OrderList title="Received" role="recipient" orders={data.received} empty="Item gifts you receive show up here." />
          <OrderList title="Sent" role="giver" orders={data.sent} empty="Item gifts you give show up here." />
          <p className="muted small orders__address-link">
            <Link to={settings}>Shipping address in Settings</Link>
          </p>
        </>
      ) : null}
    </div>
  );
}

function OrderList({ title, role, orders, empty }: { title: string; role: Role; orders: AnyOrder[]; empty: string }) {
  const headingId = `orders-${role}`;
  return (
    <section className="orders__section" aria-labelledby={headingId}>
      <h2 id={headingId} className="orders__title">
        {title}
      </h2>
      {orders.length === 0 ? (
        <p className="card orders__empty muted">{empty}</p>
      ) : (
        <ul className="row-list orders__list" aria-label={`${title} orders`}>
          {orders.map((order) => (
            <li key={order._id} className="order-row">
              <span className="order-row__media" aria-hidden="true">
                {order.item.photo ? <img src={order.item.photo} alt="" loading="lazy" width={52} height={52} /> : <PackageIcon size={24} />}
              </span>
              <span className="order-row__body">
                <span className="order-row__title">{order.item.title}</span>
                <span className="order-row__when muted small">
                  {whenLine(order)}
                  {'shipTo' in order && order.shipTo && order.status !== 'delivered' ? ` · to ${order.shipTo.city}` : ''}
                  {role === 'giver' ? ` · ${formatDollars(order.amount)}` : ''}
                </span>
              </span>
              <span className={`order-status order-status--${order.status}`}>{statusText(order)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
