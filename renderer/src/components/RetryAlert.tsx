/** A load that failed: the spec's text and Try again. */
export function RetryAlert({
  message,
  onRetry,
  className,
  disabled = false,
}: {
  message: string;
  onRetry: () => void;
  /** The page's own placement class, beside `alert`. */
  className?: string;
  disabled?: boolean;
}) {
  return (
    <div className={className ? `alert ${className}` : 'alert'} role="alert">
      <p>{message}</p>
      <button type="button" className="btn btn--sm" onClick={onRetry} disabled={disabled}>
        Try again
      </button>
    </div>
  );
}
