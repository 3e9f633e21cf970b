export { scanDedupId, scanJobOptions } from '@sendwell/contracts';
export { scanJob } from '@sendwell/server-kit';
