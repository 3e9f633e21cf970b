import { LandingPage } from '@/features/landing/components/landing-page';

export function Component() {
  return (
    <>
      <title>Sendwell · Email deliverability monitoring</title>
      <LandingPage />
    </>
  );
}
