import type { SearchProduct } from '../../api/types';
import { PackageIcon } from '../../components/Icons';
import { formatDollars } from '../../format';
import { productShipping } from '../../productPrice';

function shippingText(shipping: number | null): string {
  if (shipping === null) return ' · shipping calculated';
  return shipping === 0 ? ' · free shipping' : ` + ${formatDollars(shipping)} shipping`;
}

/** The catalogue item an item link is for, with a way to choose another. */
export function SelectedItem({ item, onChange }: { item: SearchProduct; onChange: () => void }) {
  return (
    <div className="share__item">
      <span className="product-row__image share__item-image">
        {item.image?.imageUrl ? <img src={item.image.imageUrl} alt="" width={72} height={72} /> : <PackageIcon size={24} />}
      </span>
      <div className="share__item-text">
        <p className="share__item-label">Selected item</p>
        <p className="share__item-title">{item.title}</p>
        <p className="muted small">
          {formatDollars(Number(item.price.value))}
          {shippingText(productShipping(item))}
          {item.condition ? ` · ${item.condition}` : ''}
        </p>
      </div>
      <button type="button" className="btn btn--sm" onClick={onChange}>
        Change
      </button>
    </div>
  );
}
