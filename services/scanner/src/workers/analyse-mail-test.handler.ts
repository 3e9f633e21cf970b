import type { JobHandler } from '@sendwell/server-kit';
import { JobName } from '@sendwell/contracts';

/** Reads one received test message (mail-test/analyse-mail-test.ts) and stores the analysis. */
export function analyseMailTestHandler(): JobHandler<typeof JobName.AnalyseMailTest> {
  return async () => {
    throw new Error('analyse-mail-test: not built yet');
  };
}
