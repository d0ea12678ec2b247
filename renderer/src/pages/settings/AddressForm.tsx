import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ADDRESS_FIELD_MAX, COUNTRY_CODES, POSTAL_CODE_MAX } from '../../../../api/contract/limits';
import { ApiError } from '../../api/client';
import { ADDRESS_SAVE_ERROR, useAddressQuery, useRemoveAddress, useSaveAddress, type AddressView } from '../../api/orders';
import { LockIcon, MapPinIcon, PackageIcon, PencilIcon } from '../../components/Icons';
import { RetryAlert } from '../../components/RetryAlert';
import { Spinner } from '../../components/Spinner';
import './AddressForm.css';

type Draft = Record<'name' | 'line1' | 'line2' | 'city' | 'region' | 'postalCode' | 'country', string>;

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' });
  } catch {
    return null;
  }
})();
export const countryName = (code: string) => regionNames?.of(code) ?? code;

/** The visitor's own country, from the browser's language ('en-GB' → GB), when it is one we ship to. */
function guessCountry(): string {
  const region = navigator.language.split('-')[1]?.toUpperCase();
  return region && COUNTRY_CODES.includes(region) ? region : 'US';
}

function draftOf(address: AddressView | null): Draft {
  return {
    name: address?.name ?? '',
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    city: address?.city ?? '',
    region: address?.region ?? '',
    postalCode: address?.postalCode ?? '',
    country: address?.country ?? guessCountry(),
  };
}

function errorText(err: unknown): string {
  if (err instanceof ApiError && (err.status === 0 || (err.status >= 400 && err.status < 500)) && err.message) return err.message;
  return ADDRESS_SAVE_ERROR;
}

/**
 * Settings: the user's private shipping address, where item gifts are sent. Only its owner sees
 * it; saving it places the gifts that were waiting for it.
 */
export function AddressForm() {
  const { data, isPending, isError, refetch } = useAddressQuery();
  const address = data?.address ?? null;
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const remove = useRemoveAddress();
  const { hash } = useLocation();
  const section = useRef<HTMLElement>(null);
  const loaded = data !== undefined;

  // A link to Settings#address (the notification that asks for one) lands on this section.
  useEffect(() => {
    if (hash === '#address' && loaded) section.current?.scrollIntoView({ block: 'start' });
  }, [hash, loaded]);

  return (
    <section ref={section} className="card address" aria-labelledby="address-title">
      <header className="address__header">
        <h2 id="address-title" className="settings__section-title">
          Shipping address
        </h2>
        <Link to="/orders" className="btn btn--sm btn--soft">
          <PackageIcon size={16} />
          Your orders
        </Link>
      </header>
      <p className="address__note field-hint">
        <LockIcon size={14} /> Only you can see it. Item gifts ship here; givers never see your address.
      </p>

      {isPending ? <Spinner label="Loading your address" /> : null}
      {isError && !data ? <RetryAlert message={ADDRESS_SAVE_ERROR} onRetry={() => void refetch()} /> : null}

      {data && address && !editing ? (
        <div className="address__saved">
          <MapPinIcon size={20} className="address__pin" />
          <address className="address__lines">
            <strong>{address.name}</strong>
            <span>{address.line1}</span>
            {address.line2 ? <span>{address.line2}</span> : null}
            <span>{[address.city, [address.region, address.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ')}</span>
            <span>{countryName(address.country)}</span>
          </address>
          <div className="address__actions">
            <button
              type="button"
              className="btn btn--sm btn--soft"
              onClick={() => {
                setStatus(null);
                setEditing(true);
              }}
            >
              <PencilIcon size={16} />
              Edit
            </button>
            <button
              type="button"
              className="btn btn--sm"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () => setStatus({ kind: 'success', text: 'Address removed.' }),
                  onError: (err) => setStatus({ kind: 'error', text: errorText(err) }),
                })
              }
            >
              Remove
            </button>
          </div>
        </div>
      ) : null}

      {data && (!address || editing) ? (
        <AddressFields
          key={address?.updatedAt ?? 'new'}
          initial={address}
          onCancel={address ? () => setEditing(false) : undefined}
          onSaved={(placed) => {
            setEditing(false);
            setStatus({
              kind: 'success',
              text:
                placed > 0
                  ? `Address saved. ${placed === 1 ? 'Your waiting gift is' : `${placed} waiting gifts are`} on the way.`
                  : 'Address saved.',
            });
          }}
          onError={(text) => setStatus({ kind: 'error', text })}
        />
      ) : null}

      {status ? (
        <div className={status.kind === 'error' ? 'alert' : 'alert alert--success'} role={status.kind === 'error' ? 'alert' : 'status'}>
          {status.text}
        </div>
      ) : null}
    </section>
  );
}

function AddressFields({
  initial,
  onCancel,
  onSaved,
  onError,
}: {
  initial: AddressView | null;
  onCancel?: () => void;
  onSaved: (placedOrders: number) => void;
  onError: (text: string) => void;
}) {
  const save = useSaveAddress();
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const id = useId();
  const countries = useMemo(
    () => COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) => a.name.localeCompare(b.name)),
    [],
  );

  const set = (key: keyof Draft) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: event.target.value }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate(
      { ...draft, line2: draft.line2 || undefined, region: draft.region || undefined, postalCode: draft.postalCode || undefined },
      { onSuccess: (answer) => onSaved(answer.placedOrders), onError: (err) => onError(errorText(err)) },
    );
  }

  /** `required: false` fields may stay empty; `optional` says so (a postal code is needed in most countries, not all). */
  const text = (
    key: keyof Draft,
    label: string,
    autoComplete: string,
    options: { required?: boolean; optional?: boolean; max?: number } = {},
  ) => (
    <div className={`field address__field address__field--${key}`}>
      <label htmlFor={`${id}-${key}`}>
        {label}
        {options.optional ? <span className="address__optional"> (optional)</span> : null}
      </label>
      <input
        id={`${id}-${key}`}
        className="input"
        name={key}
        autoComplete={autoComplete}
        required={options.required !== false}
        maxLength={options.max ?? ADDRESS_FIELD_MAX}
        value={draft[key]}
        onChange={set(key)}
      />
    </div>
  );

  return (
    <form className="address__form" onSubmit={onSubmit} aria-label="Shipping address">
      {text('name', 'Full name', 'shipping name')}
      {text('line1', 'Address', 'shipping address-line1')}
      {text('line2', 'Apartment, suite, etc.', 'shipping address-line2', { required: false, optional: true })}
      {text('city', 'City', 'shipping address-level2')}
      {text('region', 'State / region', 'shipping address-level1', { required: false, optional: true })}
      {text('postalCode', 'Postal code', 'shipping postal-code', { required: false, max: POSTAL_CODE_MAX })}
      <div className="field address__field address__field--country">
        <label htmlFor={`${id}-country`}>Country</label>
        <select
          id={`${id}-country`}
          className="input"
          name="country"
          autoComplete="shipping country"
          value={draft.country}
          onChange={set('country')}
        >
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <div className="address__buttons">
        {onCancel ? (
          <button type="button" className="btn btn--soft" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" className="btn btn--primary" disabled={save.isPending}>
          {save.isPending ? <Spinner size={18} light label="Saving" /> : null}
          Save address
        </button>
      </div>
    </form>
  );
}
