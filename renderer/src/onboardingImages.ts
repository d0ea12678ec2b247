/**
 * The onboarding art (PRODUCT.md §4): the three share targets' icons and the steps of the
 * 'How to Share the Link' flows (Instagram four, Twitter/X two, Messages two). Shipped as static
 * files in renderer/public/onboarding/ and preloaded after login.
 */
export type ShareTarget = 'instagram' | 'twitter' | 'messages';

export const SHARE_STEP_COUNT: Record<ShareTarget, number> = { instagram: 4, twitter: 2, messages: 2 };

export const onboardingIcon = (target: ShareTarget) => `/onboarding/${target}.svg`;
export const onboardingStep = (target: ShareTarget, step: number) => `/onboarding/${target}-step-${step}.svg`;

export const ONBOARDING_IMAGES: readonly string[] = (Object.keys(SHARE_STEP_COUNT) as ShareTarget[]).flatMap((target) => [
  onboardingIcon(target),
  ...Array.from({ length: SHARE_STEP_COUNT[target] }, (_, i) => onboardingStep(target, i + 1)),
]);
