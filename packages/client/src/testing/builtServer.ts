// The built server and admin CLI for the client's end-to-end tests. Re-exported from the project's test helpers
// (under the names they have in @petstore/test-support on main), so that moving those helpers touches only this file.
export { runCliProcess as runCli, runProcess as runNodeProcess, spawnServer, type ServerProcess } from '@petstore/app/testing/processes';
export { auth, awayFromMinuteEnd, enterpriseKey as issueUnlimitedKey, listAllPets } from '@petstore/app/testing/api';
