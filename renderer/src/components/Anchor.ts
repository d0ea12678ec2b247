import type { ComponentType, ReactNode } from 'react';

/** A link of a view: the app passes its router's link, the server's first paint a plain `<a href>`. */
export type Anchor = ComponentType<{ to: string; className?: string; 'aria-label'?: string; children?: ReactNode }>;
