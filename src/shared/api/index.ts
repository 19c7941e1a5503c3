export * from './envelope';
export * from './models';
export * from './procedures';
export * from './events';
export * from './models-messages';
export * from './client';
export * from './bridge';
