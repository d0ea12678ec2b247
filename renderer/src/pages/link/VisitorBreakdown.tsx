import { Link } from 'react-router-dom';
import { FEWER_THAN_MIN, VISITOR_SOURCE_LABELS, VISITOR_SOURCES } from '../../../../api/contract/analytics';
import type { LinkView, VisitorBreakdownView } from '../../api/types';
import './VisitorBreakdown.css';

/** A suppressed cell reads 'fewer than 5', never a number. */
const shown = (count: number | null) => (count === null ? FEWER_THAN_MIN : String(count));

type Row = [label: string, text: string, hidden: boolean];
const countRow = (label: string, count: number | null): Row => [label, shown(count), count === null];

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

function Breakdown({ breakdown }: { breakdown: VisitorBreakdownView }) {
  return (
    <section className="visitor-breakdown" aria-labelledby="visitor-breakdown-title">
      <h2 id="visitor-breakdown-title">Visitors</h2>
      <p className="visitor-breakdown__note">
        Counts only, updated every hour. Groups of {FEWER_THAN_MIN} visitors are hidden, so no one who visits can be picked out.
      </p>
      <Group
        title="Views and unique visitors by day"
        rows={breakdown.days.map((d): Row =>
          d.visitors === null
            ? [dayLabel(d.day), `${FEWER_THAN_MIN} visitors`, true]
            : [dayLabel(d.day), `${d.views ?? 0} views · ${d.visitors} visitors`, false],
        )}
      />
      <Group title="Where they came from" rows={VISITOR_SOURCES.map((s) => countRow(VISITOR_SOURCE_LABELS[s], breakdown.sources[s]))} />
      <Group
        title="Signed in"
        rows={[countRow('Logged in', breakdown.signedIn.loggedIn), countRow('Anonymous', breakdown.signedIn.anonymous)]}
      />
      <Group title="Device" rows={[countRow('Phone', breakdown.devices.phone), countRow('Desktop', breakdown.devices.desktop)]} />
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
