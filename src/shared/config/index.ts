export * from './schema';
export * from './parse';
export * from './secrets';
export * from './breakpoints';
