// Locate the pinned npm tarball that field/run.sh unpacked into
// field/.cache/npm/, and check its package.json names the pinned version, so
// a field adapter never audits some other release. A missing or stale
// install is a clear error on stderr and exit status 3.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

/** The unpacked package directory for `name@version`, checked. */
export function pinnedPackage(name, version) {
	const dir = join(here, '.cache', 'npm', `${name.replace(/^@/, '').replace('/', '-')}-${version}`, 'package')
	let manifest
	try {
		manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
	} catch (e) {
		process.stderr.write(`field audit needs ${name}@${version} in ${dir}: ${e.message}; run field/run.sh --install-only\n`)
		process.exit(3)
	}
	if (manifest.name !== name || manifest.version !== version) {
		process.stderr.write(`field audit needs ${name}@${version} but ${dir} holds ${manifest.name}@${manifest.version}\n`)
		process.exit(3)
	}
	return dir
}

/** Import a module file of a pinned package by its path inside the package. */
export function importFrom(dir, path) {
	return import(pathToFileURL(join(dir, path)).href)
}
