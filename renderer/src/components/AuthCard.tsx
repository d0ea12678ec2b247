import type { ReactNode } from 'react';
import { AppLink } from './AppLinks';
import { AuthCardView } from './AuthCardView';
import './AuthCard.css';

interface AuthCardProps {
  title: string;
  tagline?: string;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card used by login, registration and the invite landing page. */
export function AuthCard(props: AuthCardProps) {
  return <AuthCardView Link={AppLink} {...props} />;
}
