import { Link } from 'react-router-dom';
import { BREAKDOWN_GROUP_LABELS, FEWER_THAN_MIN } from '../../../../api/contract/analytics';
import type { LinkView, VisitorBreakdownView } from '../../api/types';
import './VisitorBreakdown.css';

/** A hidden row reads 'Fewer than 5', never a number. */
const HIDDEN = FEWER_THAN_MIN[0].toUpperCase() + FEWER_THAN_MIN.slice(1);
const shown = (count: number | null) => (count === null ? HIDDEN : String(count));

type Row = [label: string, text: string, hidden: boolean];

function Group({ title, rows }: { title: string; rows: Row[] }) {
  return (
    <div className="visitor-breakdown__group">
      <h3>{title}</h3>
      <ul className="link-metrics__visitors">
        {rows.map(([label, text, hidden]) => (
          <li key={label}>
            <span>{label}</span>
            <span className={hidden ? 'visitor-breakdown__hidden' : undefined}>{text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const spanLabel = (day: string, lastDay: string) => (day === lastDay ? dayLabel(day) : `${dayLabel(day)} – ${dayLabel(lastDay)}`);

const DAYS_TITLES: Record<VisitorBreakdownView['grouping']['days'], string> = {
  day: 'Views and unique visitors by day',
  week: 'Views and visitors by week',
  all: 'Views and visitors',
};

/** What was merged, as the card says it: empty when every part is as fine as it goes. */
export function groupingNote({ days, sources, signedIn, devices }: VisitorBreakdownView['grouping']): string {
  const parts = [
    days === 'week' && 'days by week',
    days === 'all' && 'all days together',
    sources === 'kind' && 'sources into Social, Direct and Other',
    sources === 'all' && 'all sources together',
    signedIn === 'all' && 'signed in or not together',
    devices === 'all' && 'all devices together',
  ].filter((part): part is string => Boolean(part));
  if (!parts.length) return '';
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `Grouped ${list} so no number counts ${FEWER_THAN_MIN} visitors.`;
}

function Breakdown({ breakdown }: { breakdown: VisitorBreakdownView }) {
  const note = groupingNote(breakdown.grouping);
  const labelled = <G extends string>(labels: Record<G, string>, cells: { group: G; visitors: number | null }[]) =>
    cells.map((c): Row => [labels[c.group], shown(c.visitors), c.visitors === null]);
  return (
    <section className="visitor-breakdown" aria-labelledby="visitor-breakdown-title">
      <h2 id="visitor-breakdown-title">Visitors</h2>
      <p className="visitor-breakdown__note">Counts only, updated every hour, so no one who visits can be picked out.</p>
      <p className={note ? 'visitor-breakdown__note visitor-breakdown__grouped' : 'visitor-breakdown__note'}>
        {note || `No number counts ${FEWER_THAN_MIN} visitors.`}
      </p>
      <Group
        title={DAYS_TITLES[breakdown.grouping.days]}
        rows={breakdown.days.map((d): Row =>
          d.visitors === null
            ? [spanLabel(d.day, d.lastDay), `${HIDDEN} visitors`, true]
            : [spanLabel(d.day, d.lastDay), `${d.views ?? 0} views · ${d.visitors} visitors`, false],
        )}
      />
      <Group title="Where they came from" rows={labelled(BREAKDOWN_GROUP_LABELS.sources, breakdown.sources)} />
      <Group title="Signed in" rows={labelled(BREAKDOWN_GROUP_LABELS.signedIn, breakdown.signedIn)} />
      <Group title="Device" rows={labelled(BREAKDOWN_GROUP_LABELS.devices, breakdown.devices)} />
    </section>
  );
}

/** The Link Metrics card's visitor part: the breakdown for a subscribed owner, else the way to subscribe. */
export function VisitorBreakdown({ link }: { link: LinkView }) {
  const breakdown = link.metrics?.breakdown;
  if (breakdown) return <Breakdown breakdown={breakdown} />;
  return (
    <Link className="btn btn--gradient" to={`/manage-subscription/${encodeURIComponent(link.creatorUsername)}`}>
      Subscribe to see visitors
    </Link>
  );
}
