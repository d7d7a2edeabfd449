// The package as a stranger gets it: `npm pack` the repository (build.sh already
// ran, so the prepack script is skipped), then install the tarball into a scratch
// project, offline (posenc has no runtime dependencies). Used by the install,
// types and bundler tests, each with its own scratch folder.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs a command; returns spawnSync's result with text output. */
export function run(command, args, cwd, env = {}) {
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', ...env },
  });
}

/** The command's output, for assertion messages. */
export const output = (result) => `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ?? ''}`;

/**
 * Packs the repository and installs the tarball into `dir/project` (a package
 * of the given `type`). `links` names devDependencies of this repository (tsc,
 * vite, webpack...) made visible in the project through node_modules symlinks,
 * so nothing is fetched. Resolves to { dir, tarball, files, project, remove() }.
 */
export function packAndInstall({ type = 'module', links = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-packed-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root);
    if (pack.status !== 0) throw new Error(`npm pack failed:\n${output(pack)}`);
    const [info] = JSON.parse(pack.stdout);
    const tarball = join(dir, info.filename);
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type }));
    const install = run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tarball],
      project,
    );
    if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${output(install)}`);
    for (const name of links) {
      const target = join(project, 'node_modules', name);
      mkdirSync(join(target, '..'), { recursive: true });
      symlinkSync(join(root, 'node_modules', name), target, 'dir');
    }
    return { dir, tarball, files: info.files.map((f) => f.path), project, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
