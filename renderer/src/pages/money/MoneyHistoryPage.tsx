import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import {
  ANONYMOUS_GIVER,
  MONEY_HISTORY_EMPTY,
  MONEY_HISTORY_EMPTY_KIND,
  MONEY_HISTORY_ERROR,
  MONEY_HISTORY_KINDS,
  payoutLine,
} from '../../../../api/contract/texts';
import type { MoneyHistoryEntry, MoneyHistoryKind } from '../../../../api/contract/wallet';
import { downloadMoneyHistoryCsv, useMoneyHistory, walletKeys } from '../../api/wallet';
import {
  ArrowDownIcon,
  CoinsIcon,
  GiftIcon,
  HandHeartIcon,
  LockIcon,
  PackageIcon,
  RefreshIcon,
  StarIcon,
  WalletIcon,
} from '../../components/Icons';
import { RetryAlert } from '../../components/RetryAlert';
import { PageSpinner, Spinner } from '../../components/Spinner';
import { useInfiniteScroll } from '../../components/useInfiniteScroll';
import { usePageTitle } from '../../components/usePageTitle';
import { formatDate, formatDollars } from '../../format';
import { balanceAtom } from '../../state/session';
import { BalanceHolds } from '../../components/BalanceHolds';
import './MoneyHistoryPage.css';

const KINDS = Object.keys(MONEY_HISTORY_KINDS) as MoneyHistoryKind[];

const ICONS: Record<MoneyHistoryKind, typeof WalletIcon> = {
  deposit: ArrowDownIcon,
  withdrawal: WalletIcon,
  gift_given: HandHeartIcon,
  gift_received: GiftIcon,
  link_escrow: LockIcon,
  escrow_returned: RefreshIcon,
  purchase: PackageIcon,
  refund: RefreshIcon,
  subscription: StarIcon,
  dispute: LockIcon,
  gift_returned: RefreshIcon,
  other: CoinsIcon,
};

/** '+$5.00' / '-$5.00': the sign always shows, so a row reads without its colour. */
const signed = (amount: number) => (amount > 0 ? `+${formatDollars(amount)}` : formatDollars(amount));

/** Who was on the other side, as far as the user may know. */
function partyLine(entry: MoneyHistoryEntry): string | null {
  if (entry.anonymous) return `From ${ANONYMOUS_GIVER}`;
  if (entry.payout) return payoutLine(entry.payout.bankLast4, entry.payout.status);
  if (!entry.party) return null;
  const name =
    entry.party.displayName === entry.party.username ? `@${entry.party.username}` : `${entry.party.displayName} (@${entry.party.username})`;
  return entry.amount < 0 ? `To ${name}` : `From ${name}`;
}

/** Every movement of the user's balance, newest first, with the balance after each. */
export function MoneyHistoryPage() {
  usePageTitle('Money history');
  const balance = useAtomValue(balanceAtom);
  const [kind, setKind] = useState<MoneyHistoryKind | null>(null);
  const query = useMoneyHistory(kind);
  const { data, isPending, isError, isFetchNextPageError, isFetchingNextPage, hasNextPage, fetchNextPage, refetch } = query;
  const sentinel = useInfiniteScroll(query, { rootMargin: '400px' });
  const [csv, setCsv] = useState<'idle' | 'busy' | 'failed'>('idle');
  const filterId = useId();
  const entries = useMemo(() => (data?.pages ?? []).flatMap((page) => page.entries), [data]);

  // Money that moves while the page is open (a gift arriving over the socket moves the session's
  // balance): the list is read again, so it keeps matching the balance shown.
  const queryClient = useQueryClient();
  const shownBalance = useRef(balance);
  useEffect(() => {
    if (shownBalance.current === balance) return;
    shownBalance.current = balance;
    void queryClient.invalidateQueries({ queryKey: walletKeys.all });
  }, [balance, queryClient]);

  async function download() {
    setCsv('busy');
    try {
      await downloadMoneyHistoryCsv(kind);
      setCsv('idle');
    } catch {
      setCsv('failed');
    }
  }

  return (
    <div className="money-history">
      <header className="page-header">
        <h1>Money history</h1>
        <p>
          Every deposit, withdrawal, gift and purchase, newest first. Your balance is <strong>{formatDollars(balance)}</strong>.
        </p>
        <p>
          <BalanceHolds />
        </p>
      </header>

      <div className="money-history__toolbar">
        <div className="money-history__filter">
          <label htmlFor={filterId}>Show</label>
          <select
            id={filterId}
            className="input"
            value={kind ?? ''}
            onChange={(event) => setKind(event.target.value ? (event.target.value as MoneyHistoryKind) : null)}
          >
            <option value="">Everything</option>
            {KINDS.filter((k) => k !== 'other').map((k) => (
              <option key={k} value={k}>
                {MONEY_HISTORY_KINDS[k]}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="btn btn--sm btn--soft" onClick={() => void download()} disabled={csv === 'busy'}>
          {csv === 'busy' ? <Spinner size={16} label="Preparing the CSV file" /> : <ArrowDownIcon size={16} />}
          Download CSV
        </button>
      </div>
      {csv === 'failed' ? (
        <RetryAlert className="money-history__error" message="The CSV file could not be downloaded." onRetry={() => void download()} />
      ) : null}

      {isPending ? <PageSpinner label="Loading your money history" /> : null}

      {isError && !data ? (
        <RetryAlert className="money-history__error" message={MONEY_HISTORY_ERROR} onRetry={() => void refetch()} />
      ) : null}

      {data && entries.length === 0 ? (
        <div className="card empty-state">
          <div className="empty-state__icon">
            <CoinsIcon size={28} />
          </div>
          <h2>{kind ? `No ${MONEY_HISTORY_KINDS[kind].toLowerCase()} yet` : 'Nothing here yet'}</h2>
          <p className="muted">{kind ? MONEY_HISTORY_EMPTY_KIND : MONEY_HISTORY_EMPTY}</p>
        </div>
      ) : null}

      {entries.length > 0 ? (
        <ol className="row-list money-history__list" aria-label="Money history">
          {entries.map((entry) => (
            <HistoryRow key={entry.id} entry={entry} />
          ))}
        </ol>
      ) : null}

      {hasNextPage ? (
        <div ref={sentinel} className="money-history__more">
          {isFetchNextPageError ? (
            <RetryAlert className="money-history__error" message={MONEY_HISTORY_ERROR} onRetry={() => void fetchNextPage()} />
          ) : (
            <button type="button" className="btn btn--sm" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
              {isFetchingNextPage ? <Spinner size={16} label="Loading more" /> : null}
              Show older
            </button>
          )}
        </div>
      ) : null}
    </div>
  );
}

function HistoryRow({ entry }: { entry: MoneyHistoryEntry }) {
  const Icon = ICONS[entry.kind];
  const party = partyLine(entry);
  const into = entry.amount > 0;
  return (
    <li className="money-row">
      <span className={into ? 'money-row__icon is-in' : 'money-row__icon'} aria-hidden="true">
        <Icon size={20} />
      </span>
      <span className="money-row__body">
        <span className="money-row__kind">{MONEY_HISTORY_KINDS[entry.kind]}</span>
        {party ? <span className="money-row__party">{party}</span> : null}
        <time className="money-row__date" dateTime={entry.createdAt}>
          {/* Wraps between the day and the time, never inside either. */}
          <span>{formatDate(entry.createdAt)}</span> <span>{formatDate(entry.createdAt, { timeStyle: 'short' })}</span>
        </time>
      </span>
      <span className="money-row__figures">
        <span className={into ? 'money-row__amount is-in' : 'money-row__amount'}>{signed(entry.amount)}</span>
        <span className="money-row__balance">
          <span className="visually-hidden">Balance after: </span>
          <span aria-hidden="true">Balance </span>
          <span className="money-row__balance-amount">{formatDollars(entry.balance)}</span>
        </span>
      </span>
    </li>
  );
}
