import { useId, type ReactNode } from 'react';
import type { LinkDetailsView } from '../../api/types';
import { CoinsIcon, GiftIcon, HandHeartIcon, PackageIcon } from '../../components/Icons';

export type GiveOrReceive = LinkDetailsView['giveorreceive'];
export type LinkType = LinkDetailsView['type'];

interface ChoiceOption<T extends string> {
  value: T;
  label: string;
  hint: string;
  icon: ReactNode;
}

/** A segmented radio group: one big option each, with its icon and hint. */
export function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T | null;
  options: ChoiceOption<T>[];
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <fieldset className="segmented">
      <legend>{legend}</legend>
      <div className="segmented__options">
        {options.map((option) => (
          <label key={option.value} className="segmented__option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              aria-labelledby={`${id}-${option.value}`}
              aria-describedby={`${id}-${option.value}-hint`}
            />
            {option.icon}
            <span className="segmented__text">
              <span id={`${id}-${option.value}`}>{option.label}</span>
              <span id={`${id}-${option.value}-hint`} className="segmented__hint">
                {option.hint}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export const GIVE_OPTIONS: ChoiceOption<GiveOrReceive>[] = [
  { value: 'give', label: 'Give', hint: 'Send a gift', icon: <HandHeartIcon size={22} /> },
  { value: 'receive', label: 'Receive', hint: 'Ask for a gift', icon: <GiftIcon size={22} /> },
];

export const TYPE_OPTIONS: ChoiceOption<LinkType>[] = [
  { value: 'currency', label: 'Currency', hint: 'An amount of money', icon: <CoinsIcon size={22} /> },
  { value: 'item', label: 'Item', hint: 'Something from the shop', icon: <PackageIcon size={22} /> },
];
