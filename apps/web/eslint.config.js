export { default } from '@sendwell/eslint-config/base';
