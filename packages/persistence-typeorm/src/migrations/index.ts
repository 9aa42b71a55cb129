import { InitialSchema1763769600000 } from './InitialSchema1763769600000.js';

/** Every migration, oldest first. */
export const migrations = [InitialSchema1763769600000];
