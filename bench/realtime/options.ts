/** bench:realtime's command-line options. */
import { numberArg } from '../args.js';

export interface Options {
  db: 'sqlite' | 'postgres';
  rate: number;
  seconds: number;
  window: number;
  only?: 'echo' | 'giftlink';
  redis: boolean;
}

export function parseOptions(argv: string[]): Options {
  const opts: Options = { db: 'sqlite', rate: 200, seconds: 5, window: 64, redis: true };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--db') {
      const v = value();
      if (v !== 'sqlite' && v !== 'postgres') throw new Error('--db must be sqlite or postgres');
      opts.db = v;
    } else if (flag === '--only') {
      const v = value();
      if (v !== 'echo' && v !== 'giftlink') throw new Error('--only must be echo or giftlink');
      opts.only = v;
    } else if (flag === '--rate') opts.rate = numberArg('--rate', value(), 1, 100_000);
    else if (flag === '--seconds') opts.seconds = numberArg('--seconds', value(), 1, 120);
    else if (flag === '--window') opts.window = Math.round(numberArg('--window', value(), 1, 10_000));
    else if (flag === '--no-redis') opts.redis = false;
    else if (flag === '--help' || flag === '-h') {
      console.log(
        'npm run bench:realtime -- [--db sqlite|postgres] [--rate N] [--seconds N] [--window N] [--only echo|giftlink] [--no-redis]',
      );
      process.exit(0);
    } else throw new Error(`unknown option ${argv[i]} (try --help)`);
  }
  return opts;
}
