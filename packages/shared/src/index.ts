export * from './errors';
export * from './languages';
export * from './limits';
export * from './permissions';
export * from './validation';
export * from './front-desk';
export * from './money';
export * from './time';
