export * from './document.js';
export * from './responses.js';
