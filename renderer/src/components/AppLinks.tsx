import { Link, useLocation } from 'react-router-dom';
import { fromLocation } from '../state/navigation';
import type { Anchor } from './Anchor';

/** The router's link, as a view's `Link`. */
export const AppLink: Anchor = ({ to, ...rest }) => <Link to={to} {...rest} />;

/** The router's link that brings the visitor back here afterwards (login, register). */
export const LinkFromHere: Anchor = ({ to, ...rest }) => {
  const location = useLocation();
  return <Link to={to} state={fromLocation(location)} {...rest} />;
};
