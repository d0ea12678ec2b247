import './node-guard.js';
import { ConfigError, environment, loadConfig } from './config.js';

let config;
try {
  config = loadConfig(environment());
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

// Loaded once the configuration is good, so a bad one is told at once.
const { startServer } = await import('./server.js');
const { firstInvite, inviteUrl } = await import('./invites/service.js');
const server = await startServer(config);
const { log } = server.deps;
// In development the terminal is read by a person: the plain lines below say it, and the invite is
// the last thing printed (the JSON log writes on its own time and could land after it).
if (config.env !== 'development')
  log.info({ url: server.url, database: config.databaseUrl ? 'postgres' : 'sqlite' }, 'Giftlink is listening');
console.log(`Giftlink is running at ${server.url}`);

const invite = await firstInvite(server.deps.db);
if (invite) {
  console.log(`\nNo accounts yet. Create the first one with this invite:\n\n  ${inviteUrl(config, invite.code)}\n`);
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // A job or a connection that outlives the grace by far does not keep the process up.
    setTimeout(
      () => {
        log.error('shutdown did not finish in time');
        process.exit(1);
      },
      config.shutdownDrainDelayMs + config.shutdownGraceMs + 10_000,
    ).unref();
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
