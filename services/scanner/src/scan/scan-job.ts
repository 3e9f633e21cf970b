export { scanDedupId, scanJobOptions } from '@sendwell/contracts';
export { scanJob } from '@sendwell/scan-engine';
