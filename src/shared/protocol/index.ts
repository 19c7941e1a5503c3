export * from './constants';
export * from './schemas';
export * from './wire';
export * from './events';
export * from './canonical';
export * from './payload-size';
export * from './payload-depth';
