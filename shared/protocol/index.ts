export * from './errors.js';
export * from './events.js';
export * from './schemas.js';
export * from './views.js';
export * from './accounts.js';
export * from './admin.js';
export * from './moves.js';
export * from './analysis.js';
