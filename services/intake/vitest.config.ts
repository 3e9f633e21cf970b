import { mediumTestConfig } from '@sendwell/vitest-config';
import { defineConfig } from 'vitest/config';

// The readers' tests sit beside their code; the SMTP, HTTP and worker tests under test/ use real Postgres and Redis.
export default defineConfig({ test: mediumTestConfig });
