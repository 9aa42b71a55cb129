import { defineCommand } from '../CliCommand.js';

export const migrate = defineCommand({
  name: 'migrate',
  help: `petstore migrate
    Applies pending database migrations (the server also does at start).`,
  input: () => undefined,
  // The database is migrated when it is opened.
  uses: async (open) => (await open.dataSource()).migrations.length,
  async run(_input, migrations, io) {
    io.out(`Database schema is up to date (${migrations} migration${migrations === 1 ? '' : 's'}).`);
    return 0;
  },
});
