import { unitTestConfig } from '@sendwell/vitest-config';
import { defineConfig } from 'vitest/config';

// Parsers only so far: pure, beside their code. The SMTP and HTTP intake will bring medium tests.
export default defineConfig({ test: unitTestConfig });
