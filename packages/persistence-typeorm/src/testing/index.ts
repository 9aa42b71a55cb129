export { freePort, postgresBinDir, startPostgres, startPostgresForTests, type RunningPostgres } from './startPostgres.js';
