import type { ViteUserConfig } from 'vitest/config';

type TestConfig = NonNullable<ViteUserConfig['test']>;
export declare const reporters: TestConfig['reporters'];
export declare const globalSetup: string;
export declare const unitTestConfig: TestConfig;
export declare const mediumTestConfig: TestConfig;
