import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Finds a Chromium executable for headless browser tests: `CHROMIUM_PATH` when set, else
 * `chromium`, `chromium-browser` or `google-chrome` on `PATH` (Debian: `apt-get install chromium`).
 * @returns the path, or undefined when none is installed
 * @public
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env.CHROMIUM_PATH;
  if (given !== undefined && given !== '') return existsSync(given) ? given : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
      const candidate = join(dir, name);
      if (dir !== '' && existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}
