/** A group gift's progress bar and its words, in dollars. Pure: the server paints it too. */
export function GiftProgressView({
  raised,
  goal,
  text,
  compact = false,
}: {
  raised: number;
  goal: number;
  text: string;
  compact?: boolean;
}) {
  const percent = goal > 0 ? Math.min(100, Math.round((raised / goal) * 100)) : 0;
  return (
    <span className={compact ? 'gift-progress gift-progress--compact' : 'gift-progress'}>
      <span
        className="gift-progress__track"
        role="progressbar"
        aria-label="Gifts so far"
        aria-valuemin={0}
        aria-valuemax={goal}
        aria-valuenow={raised}
        aria-valuetext={text}
      >
        <span className="gift-progress__fill" style={{ width: `${percent}%` }} />
      </span>
      <span className="gift-progress__text">{text}</span>
    </span>
  );
}
