export { default } from '@sendwell/eslint-config/node';
