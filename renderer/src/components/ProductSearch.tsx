import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { BlockedSearchError, SEARCH_MAX_LENGTH, loadBlocklist, useProductSearch } from '../api/catalog';
import { SEARCH_FAILED, SEARCH_UNEXPECTED } from '../../../api/contract/texts';
import { ApiError } from '../api/client';
import type { SearchProduct } from '../api/types';
import { formatDollars } from '../format';
import { productShipping } from '../productPrice';
import { PackageIcon, SearchIcon } from './Icons';
import { Spinner } from './Spinner';
import './ProductSearch.css';

function searchErrorMessage(err: unknown): string {
  if (err instanceof BlockedSearchError) return err.message;
  if (err instanceof ApiError) return err.status !== 0 && err.message && !err.code.startsWith('http_') ? err.message : SEARCH_FAILED;
  return SEARCH_UNEXPECTED;
}

type SearchState =
  | { kind: 'idle' }
  | { kind: 'searching' }
  | { kind: 'results'; query: string; products: SearchProduct[] }
  | { kind: 'error'; message: string };

interface ProductSearchProps {
  onSelect: (product: SearchProduct) => void;
  /** The visible text of each result's button. */
  selectLabel?: string;
  /** When given, a result's picture and title open it (for a closer look before choosing). */
  onPreview?: (product: SearchProduct) => void;
}

/**
 * The marketplace search bar ('Search for an item...') with its results: title, price and a
 * select button each. Adult or profane searches are refused here, before any request.
 * Not a <form> of its own, so it can sit inside one.
 */
export function ProductSearch({ onSelect, selectLabel = 'Select', onPreview }: ProductSearchProps) {
  const [query, setQuery] = useState('');
  // The search last asked for (Search or Enter): the query cache holds its answer.
  const [submitted, setSubmitted] = useState<string | null>(null);
  const results = useProductSearch(submitted);
  const inputId = useId();
  const resultsId = useId();

  // Fetch the word list while the user types, so the check is instant on search.
  useEffect(() => {
    void loadBlocklist().catch(() => {});
  }, []);

  const state: SearchState =
    submitted === null
      ? { kind: 'idle' }
      : results.isFetching
        ? { kind: 'searching' }
        : results.isError
          ? { kind: 'error', message: searchErrorMessage(results.error) }
          : results.isSuccess
            ? { kind: 'results', query: submitted, products: results.data }
            : { kind: 'idle' };

  function search() {
    const q = query.trim();
    if (!q) return;
    if (q === submitted) void results.refetch();
    else setSubmitted(q);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault();
      search();
    }
  }

  return (
    <div className="product-search">
      <div className="product-search__bar" role="search">
        <label htmlFor={inputId} className="visually-hidden">
          Search for an item
        </label>
        <SearchIcon size={18} className="product-search__icon" />
        <input
          id={inputId}
          className="input product-search__input"
          type="search"
          placeholder="Search for an item..."
          maxLength={SEARCH_MAX_LENGTH}
          autoComplete="off"
          enterKeyHint="search"
          value={query}
          aria-controls={resultsId}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="btn btn--soft" onClick={search} disabled={state.kind === 'searching'}>
          Search
        </button>
      </div>

      <div id={resultsId} className="product-search__results" aria-live="polite">
        {state.kind === 'searching' ? (
          <div className="product-search__status">
            <Spinner label="Searching" />
          </div>
        ) : null}
        {state.kind === 'error' ? (
          <div className="alert" role="alert">
            {state.message}
          </div>
        ) : null}
        {state.kind === 'results' && state.products.length === 0 ? (
          <p className="product-search__status muted">No items found for “{state.query}”.</p>
        ) : null}
        {state.kind === 'results' && state.products.length > 0 ? (
          <ul className="product-search__list" aria-label="Search results">
            {state.products.map((product) => {
              const shipping = productShipping(product);
              const summary = (
                <>
                  <span className="product-row__image">
                    {product.image?.imageUrl ? (
                      <img src={product.image.imageUrl} alt="" loading="lazy" width={56} height={56} />
                    ) : (
                      <PackageIcon size={22} />
                    )}
                  </span>
                  <span className="product-row__text">
                    <span className="product-row__title">{product.title}</span>
                    <span className="product-row__price">
                      {formatDollars(Number(product.price.value))}
                      <span className="product-row__shipping">
                        {shipping === null
                          ? ' · shipping calculated'
                          : shipping === 0
                            ? ' · free shipping'
                            : ` + ${formatDollars(shipping)} shipping`}
                      </span>
                    </span>
                  </span>
                </>
              );
              return (
                <li key={product.itemId} className="product-row">
                  {onPreview ? (
                    <button type="button" className="product-row__preview" onClick={() => onPreview(product)}>
                      {summary}
                    </button>
                  ) : (
                    summary
                  )}
                  <button type="button" className="btn btn--sm btn--primary" onClick={() => onSelect(product)}>
                    {selectLabel}
                    <span className="visually-hidden"> {product.title}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
