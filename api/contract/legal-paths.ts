/** Where the terms and the privacy notice are: a module of their own, so the app's every page links them without carrying their words. */
export const LEGAL_PATHS = { terms: '/terms', privacy: '/privacy' } as const;
